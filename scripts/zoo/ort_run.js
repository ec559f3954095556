#!/usr/bin/env node
// Reference executor of the model zoo: runs an ONNX model with
// onnxruntime-node on one thread and writes every output as .npy.
//
//   node scripts/zoo/ort_run.js MODEL.onnx --input NAME=FILE.npy ...
//        [--output-dir DIR] [--repeat N] [--ort DIR]
//
// Inputs are float32 .npy files (C order; float64 is converted; int64 stays
// int64, e.g. a sample-rate input). Outputs go
// to DIR/<output>.npy (float32). The session uses one intra-op and one
// inter-op thread (sequential execution, all graph optimisations); one
// warm-up run precedes N timed runs (default 3). The last line is JSON:
//   {"wall_ms": <fastest timed run>, "cpu_ms": <least CPU time (user +
//    system, all threads) of a timed run>, "load_ms": <session creation>,
//    "runs": N}
// --ort DIR is the directory whose node_modules holds onnxruntime-node
// (default: build/ort next to this repository's scripts/, or $ACCEL_ORT_DIR).
'use strict';
const fs = require('fs');
const path = require('path');

function usage(msg) {
  if (msg) console.error(`ort_run: error: ${msg}`);
  console.error('usage: ort_run.js MODEL.onnx --input NAME=FILE.npy ... ' +
                '[--output-dir DIR] [--repeat N] [--ort DIR]');
  process.exit(2);
}

function parseArgs(argv) {
  const a = {inputs: [], outDir: null, repeat: 3, model: null,
             ort: process.env.ACCEL_ORT_DIR ||
                  path.join(__dirname, '..', '..', 'build', 'ort')};
  for (let i = 0; i < argv.length; ++i) {
    const v = argv[i];
    const next = () => (i + 1 < argv.length ? argv[++i] : usage(`${v} needs a value`));
    if (v === '--input') {
      const s = next();
      const eq = s.indexOf('=');
      if (eq <= 0) usage(`--input expects NAME=FILE, got '${s}'`);
      a.inputs.push([s.slice(0, eq), s.slice(eq + 1)]);
    } else if (v === '--output-dir') a.outDir = next();
    else if (v === '--repeat') a.repeat = Math.max(1, parseInt(next(), 10));
    else if (v === '--ort') a.ort = next();
    else if (v.startsWith('-')) usage(`unknown option ${v}`);
    else if (a.model) usage(`more than one model: ${a.model}, ${v}`);
    else a.model = v;
  }
  if (!a.model) usage('no model given');
  return a;
}

// --- .npy (format 1.0 / 2.0, little-endian f4 / f8, C order) -------------
function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.readUInt8(0) !== 0x93 || buf.toString('latin1', 1, 6) !== 'NUMPY')
    throw new Error(`${file}: not a .npy file`);
  const major = buf.readUInt8(6);
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + hlen);
  const descr = /'descr':\s*'([^']*)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) throw new Error(`${file}: bad .npy header ${header}`);
  if (fortran[1] === 'True') throw new Error(`${file}: Fortran order is not supported`);
  const dims = shape[1].split(',').map(s => s.trim()).filter(s => s.length).map(Number);
  const count = dims.reduce((p, d) => p * d, 1);
  const off = start + hlen;
  if (descr[1] === '<i8') {  // INT64 inputs (e.g. a sample rate) stay INT64
    const data = new BigInt64Array(count);
    for (let i = 0; i < count; ++i) data[i] = buf.readBigInt64LE(off + 8 * i);
    return {dims, data, type: 'int64'};
  }
  const data = new Float32Array(count);
  if (descr[1] === '<f4') {
    for (let i = 0; i < count; ++i) data[i] = buf.readFloatLE(off + 4 * i);
  } else if (descr[1] === '<f8') {
    for (let i = 0; i < count; ++i) data[i] = buf.readDoubleLE(off + 8 * i);
  } else {
    throw new Error(`${file}: dtype ${descr[1]} is not supported (float32 / float64 / int64 only)`);
  }
  return {dims, data, type: 'float32'};
}

function writeNpy(file, dims, data) {
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.writeUInt8(0x93, 0);
  head.write('NUMPY', 1, 'latin1');
  head.writeUInt8(1, 6);
  head.writeUInt8(0, 7);
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.alloc(4 * data.length);
  for (let i = 0; i < data.length; ++i) body.writeFloatLE(data[i], 4 * i);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), body]));
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require(path.join(path.resolve(a.ort), 'node_modules', 'onnxruntime-node'));
  } catch (e) {
    console.error(`ort_run: error: cannot load onnxruntime-node from ${a.ort} ` +
                  `(scripts/setup.sh installs it): ${e.message}`);
    process.exit(1);
  }
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(a.model, {
    intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all'});
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const feeds = {};
  for (const [name, file] of a.inputs) {
    const t = readNpy(file);
    feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
  }
  for (const n of session.inputNames)
    if (!(n in feeds)) throw new Error(`no --input for model input '${n}'`);
  let result = await session.run(feeds);  // warm-up
  let best = Infinity, bestCpu = Infinity;
  for (let r = 0; r < a.repeat; ++r) {
    const c = process.cpuUsage();
    const s = process.hrtime.bigint();
    result = await session.run(feeds);
    best = Math.min(best, Number(process.hrtime.bigint() - s) / 1e6);
    const used = process.cpuUsage(c);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1e3);
  }
  if (a.outDir) {
    fs.mkdirSync(a.outDir, {recursive: true});
    for (const n of session.outputNames) {
      const t = result[n];
      if (t.type !== 'float32') throw new Error(`output '${n}' has type ${t.type}`);
      writeNpy(path.join(a.outDir, `${n.replace(/[\/\\]/g, '_')}.npy`), t.dims, t.data);
    }
  }
  console.log(JSON.stringify({wall_ms: best, cpu_ms: bestCpu, load_ms: loadMs, runs: a.repeat}));
}

main().catch(e => {
  console.error(`ort_run: error: ${e.message}`);
  process.exit(1);
});
