"""accel.sweep: local workers, a Dask cluster, failed rows, the CLI."""
import csv
import json
import subprocess

import numpy as np
import pytest

from conftest import SMALL_CNN, tool

HW = [{"grid.rows": 1}, {"grid.rows": 2, "pe.mac_lanes": 128},
      {"grid.rows": 0}]  # the last is impossible
OPTIONS = [{}, {"depthwise": "gemm"}]


def summary(rows):
    return [(r["hardware"], r["options"], r["status"], r.get("cycles")) for r in rows]


@pytest.fixture(scope="module")
def local_rows(accel, tmp_path_factory):
    png = tmp_path_factory.mktemp("sweep") / "pareto.png"
    rows = accel.sweep([SMALL_CNN], HW, OPTIONS, workers=0, plot=png)
    rows.png = png
    return rows


def test_rows_and_pareto(local_rows, accel):
    assert len(local_rows) == 6
    bad = [r for r in local_rows if r["status"] == "error"]
    assert len(bad) == 2 and all("HardwareError" in r["error"] and "grid.rows" in r["error"]
                                 for r in bad)
    ok = [r for r in local_rows if r["status"] == "ok"]
    for r in ok:
        assert r["cycles"] > 0 and r["energy_pj"] > 0 and r["ideal_bound_cycles"] > 0
        assert 0 < r["mac_utilisation"] <= 1 and r["dram_bytes"] > 0
    # Same cycles as a direct compile + run of the first variant.
    p = accel.compile(SMALL_CNN, hw=HW[0])
    from accel.sweeps import _inputs
    _, stats = p.run(_inputs(p, 0))
    assert ok[0]["cycles"] == stats["cycles"]
    front = local_rows.pareto()
    assert front and all(r["status"] == "ok" for r in front)
    assert local_rows.png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_process_pool_gives_the_same_rows(accel, local_rows):
    rows = accel.sweep([SMALL_CNN], HW, OPTIONS, workers=2)
    assert summary(rows) == summary(local_rows)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # tornado, in distributed
def test_dask_local_cluster(accel, local_rows):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        rows = accel.sweep([SMALL_CNN], HW, OPTIONS, scheduler=cluster.scheduler_address)
    assert summary(rows) == summary(local_rows)


def test_cli_writes_csv(tmp_path, local_rows):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"models": [SMALL_CNN],
                                "hardware": {"preset": "default",
                                             "vary": {"grid.rows": [1, 2], "grid.cols": [0, 2]}},
                                "options": [{}], "workers": 0}))
    out = tmp_path / "out.csv"
    subprocess.run([tool("accel-sweep"), str(spec), "-o", str(out)], check=True)
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 4
    assert [r["status"] for r in rows] == ["error", "ok", "error", "ok"]
    assert {"cycles", "energy_pj", "hw.grid.rows", "pareto"} <= set(rows[0])


@pytest.mark.parametrize("spec, message", [
    ([SMALL_CNN], "the spec must be a JSON object, got list"),
    ({"models": SMALL_CNN}, '"models" must be a non-empty list of model paths'),
    ({"models": [5]}, '"models" must be a non-empty list of model paths'),
    ({"models": [SMALL_CNN], "hardware": {"vary": {"grid.rows": 2}}},
     '"hardware": "vary" of "grid.rows" must be a non-empty list of values'),
    ({"models": [SMALL_CNN], "options": {"depthwise": "gemm"}},
     '"options" must be a list of dicts of compile options'),
    ({"models": [SMALL_CNN], "workers": -3}, '"workers" must be a whole number >= 0, got -3'),
    ({"models": [SMALL_CNN], "model": [SMALL_CNN]}, 'unknown key "model"'),
    ({"models": [SMALL_CNN], "options": [{"hw": "large"}]},
     "'hw' is not a compile option; the machine belongs in hardware_variants"),
])
def test_cli_refuses_a_bad_spec_before_any_run(tmp_path, spec, message):
    # Each of these ended in a Python traceback, or ("models" as a string)
    # swept the string's characters as model paths and exited 0.
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    r = subprocess.run([tool("accel-sweep"), str(path), "-o", str(tmp_path / "o.csv")],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.startswith("accel-sweep: error: ") and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "o.csv").exists()


def test_cli_checks_the_output_before_the_runs(tmp_path):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"models": [SMALL_CNN], "workers": 0}))
    r = subprocess.run([tool("accel-sweep"), str(path), "-o", str(tmp_path / "no" / "o.csv")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "the folder" in r.stderr and "does not exist" in r.stderr
    assert "runs" not in r.stdout


def test_api_refuses_strings_where_lists_go(accel):
    with pytest.raises(accel.OptionError, match="the values of 'grid.rows' must be a list"):
        accel.variants({"grid.rows": "12"})
    with pytest.raises(accel.OptionError, match="hardware_variants must be a list"):
        accel.sweep([SMALL_CNN], "large", workers=0)
    with pytest.raises(accel.OptionError, match="workers must be a whole number >= 0"):
        accel.sweep([SMALL_CNN], workers=-1)


def test_variants_take_any_list_of_values(accel):
    two = [{"preset": "default", "grid.rows": 1}, {"preset": "default", "grid.rows": 2}]
    # A numpy array or a range raised TypeError.
    for values in ([1, 2], (1, 2), range(1, 3), np.array([1, 2])):
        rows = accel.variants({"grid.rows": values})
        assert rows == two and all(type(r["grid.rows"]) is int for r in rows)
    for values in (5, {1: 2}, np.array([[1, 2]])):
        with pytest.raises(accel.OptionError, match="the values of 'grid.rows' must be a list"):
            accel.variants({"grid.rows": values})


@pytest.mark.parametrize("kwargs, message", [
    ({"models": 5}, "models must be a model path or a list of them, got 5"),
    ({"models": [None]}, "a model must be a path .*, got None"),
    ({"workers": 1.5}, "workers must be a whole number >= 0, got 1.5"),
    ({"workers": True}, "workers must be a whole number >= 0, got True"),
    ({"hardware_variants": {"grid.rows": 2}}, "hardware_variants must be a list"),
    ({"options_variants": "gemm"}, "options_variants must be a list of dicts"),
    ({"options_variants": [{5: 1}]}, "an options variant must be a dict of compile options"),
    # compile() got "multiple values for keyword argument 'hw'".
    ({"options_variants": [{"hw": "large"}]},
     "'hw' is not a compile option; the machine belongs in hardware_variants"),
    ({"seed": "x"}, "seed must be None or a whole number >= 0, got 'x'"),
    ({"seed": -1}, "seed must be None or a whole number >= 0, got -1"),
    ({"plot": 5}, "plot must be a file path"),
])
def test_api_checks_arguments_before_any_run(accel, monkeypatch, kwargs, message):
    monkeypatch.setattr(accel.sweeps, "run_one", lambda job: pytest.fail("a run started"))
    args = dict({"models": [SMALL_CNN], "workers": 0}, **kwargs)
    with pytest.raises(accel.OptionError, match="sweep: " + message):
        accel.sweep(**args)


def test_api_checks_the_plot_path_before_any_run(accel, monkeypatch, tmp_path):
    monkeypatch.setattr(accel.sweeps, "run_one", lambda job: pytest.fail("a run started"))
    # A directory D was written as D.png; a missing folder failed after the runs.
    with pytest.raises(accel.OptionError, match="is a directory"):
        accel.sweep([SMALL_CNN], workers=0, plot=tmp_path)
    with pytest.raises(accel.OptionError, match="the folder .* does not exist"):
        accel.sweep([SMALL_CNN], workers=0, plot=tmp_path / "no" / "p.png")
    assert list(tmp_path.iterdir()) == []


def test_write_csv_takes_a_path(accel, local_rows, tmp_path):
    # open() took an int as a file descriptor: True wrote to stdout and closed it.
    for path in (True, 1, None):
        with pytest.raises(accel.OptionError, match="write_csv: path must be a file path"):
            local_rows.write_csv(path)
    missing = tmp_path / "no" / "rows.csv"
    with pytest.raises(accel.OptionError, match=f"write_csv: cannot write {missing}: No such"):
        local_rows.write_csv(missing)


def test_any_failure_of_a_variant_is_its_row(accel, monkeypatch):
    # float(10**400) raised OverflowError out of the whole sweep.
    rows = accel.sweep([SMALL_CNN], options_variants=[{"sparse_threshold": 10**400}, {}],
                       workers=0)
    assert [r["status"] for r in rows] == ["error", "ok"]
    assert rows[0]["error"].startswith("OptionError: option 'sparse_threshold': 1000")
    # Not only accel.Error: any exception of one run is that row's (workers=1
    # gave "worker failed: TypeError(...)" rows, workers=0 aborted).
    compile_ = accel.compile

    def failing(model, hw=None, **options):
        if options.get("depthwise") == "gemm":
            raise TypeError("boom")
        return compile_(model, hw=hw, **options)

    monkeypatch.setattr(accel, "compile", failing)
    rows = accel.sweep([SMALL_CNN], options_variants=OPTIONS, workers=0)
    assert [(r["status"], r["error"]) for r in rows] == [("ok", ""), ("error", "TypeError: boom")]
    assert [r["pareto"] for r in rows] == [True, False]


def test_pareto_skips_rows_without_a_metric(tmp_path):
    from accel.sweeps import _mark_pareto, plot_pareto
    # An overflowed energy is None in stats.json: '<=' raised TypeError.
    rows = [{"model": "m", "status": "ok", "cycles": 10, "energy_pj": None},
            {"model": "m", "status": "ok", "cycles": 20, "energy_pj": 5.0},
            {"model": "m", "status": "ok", "cycles": None, "energy_pj": 1.0},
            {"model": "m", "status": "error", "cycles": None, "energy_pj": None}]
    _mark_pareto(rows)
    assert [r["pareto"] for r in rows] == [False, True, False, False]
    plot_pareto(rows, tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
