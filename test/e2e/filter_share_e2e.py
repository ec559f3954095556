"""filter-share end to end: convolutions whose filter strip no cluster's
storage holds (docs/mapping.md, "Filter strips shared over the mesh"),
compiled with accel-compile on the default machine with --filter-share=true
and false, simulated under --strict-hazards and compared with numpy. Also
checks the decision in stats.json: with sharing the convolution moves mesh
bytes (the remote loads of the other clusters' home chunks) and fewer DRAM
bytes than without; without, no mesh bytes.

usage: filter_share_e2e.py BIN_DIR SRC_ROOT"""
import json
import os
import sys
import tempfile


sys.path.insert(0, os.path.dirname(__file__))
from e2e_common import check_run  # noqa: E402
from fusion_e2e import Net, relu, save_case  # noqa: E402


def conv3x3(x):
    """A 3 x 3 convolution, 256 -> 64 channels (a 590 KB filter, over the
    512 KiB of a cluster's storage: the FPN neck's p2_conv) + BN + ReLU."""
    n = Net(x)
    return n, relu(n, n.conv("x", 64, k=3, p=1))


CASES = [
    # name, network, input shape
    ("conv3x3_256_64", conv3x3, (1, 256, 64, 64)),
]


def conv_layer(work, run):
    """The convolution's row of stats.json `layers` of run `run`."""
    with open(os.path.join(work, f"{run}_out", "stats.json")) as f:
        layers = json.load(f)["layers"]
    return next(l for l in layers if l["op"] == "Conv")


def check_decision(work, name):
    """Mesh bytes with sharing and none without, and fewer DRAM bytes with
    it; prints PASS / FAIL."""
    on, off = conv_layer(work, f"{name}_on"), conv_layer(work, f"{name}_off")
    dram = {k: l["dram_bytes_read"] + l["dram_bytes_written"] for k, l in
            (("on", on), ("off", off))}
    ok = on["mesh_bytes"] > 0 and off["mesh_bytes"] == 0 and dram["on"] < dram["off"]
    print(f"{'PASS' if ok else 'FAIL'} {name} decision: mesh bytes {on['mesh_bytes']} "
          f"shared, {off['mesh_bytes']} not; DRAM bytes {dram['on']} shared, "
          f"{dram['off']} not")
    return ok


def main():
    bin_dir = sys.argv[1]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, build, shape in CASES:
            x, out, ref, model = save_case(work, name, build, shape)
            for share in ("on", "off"):
                flag = "true" if share == "on" else "false"
                ok = check_run(bin_dir, model, work, f"{name}_{share}", {"x": x}, out,
                               ref, f"{name} filter-share={flag}",
                               compile_args=[f"--filter-share={flag}"])
                passed += ok
                failed += not ok
            ok = check_decision(work, name)
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
