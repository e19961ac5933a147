"""`paifu bench` runs and reports every game with an engine (it measures; it never asserts speed)."""

import json

from paifu.bench import bench_chess, bench_game, collect, public, targets
from paifu.replay import games


def test_bench_reports_each_game_and_python_chess(tmp_path):
    for game in games.game_ids():
        fig = bench_game(game, 2, 1, tmp_path, process=False, jobs2=False, repeat=1)
        assert fig.records == 2 and fig.events > 0 and fig.actions > 0 and fig.items > 0
        assert fig.split_s > 0 and fig.parse_s > 0 and fig.replay_s > 0
        assert fig.parse_validate_actions_per_s > 0
    chess_rates = bench_chess(3, 1)
    assert chess_rates and chess_rates[0].unit == "plies" and chess_rates[0].units > 0


def test_bench_whole_run_on_tiny_inputs_gives_json_figures(tmp_path):
    """One game, the whole-process timing, the --jobs 2 run and a small scale file: every figure is there."""
    data = collect(records=2, seed=1, folder=str(tmp_path), scale_mb=0.05, only=["bigtwo"], tiles=False, repeat=1,
                   race_actions=300, race_runs=1)
    doc = json.loads(json.dumps(public(data)))
    (game,) = doc["games"]
    assert game["game"] == "bigtwo" and game["actions"] > 0
    assert game["process_s"] > 0 and game["startup_s"] > 0 and game["jobs2_speedup"] > 0  # two records: no order between them
    assert doc["scale"]["records"] > 0 and doc["scale"]["jobs1_s"] > 0
    (race,) = doc["races"]  # the whole processes on at least 300 actions, and python-chess's on at least as many plies
    assert race["game"] == "bigtwo" and race["actions"] >= 300 and race["plies"] >= 300
    assert race["paifu_wall_s"] > 0 and race["chess_wall_s"] > 0 and len(race["paifu_walls"]) == 1
    assert doc["startup"]["help_s"] > 0 and doc["startup"]["validate_tiny_s"] > 0 and doc["startup"]["imports"]
    assert {t["aim"].split(" (")[0] for t in doc["targets"]} >= {"Big Two parse + validate ≥ 2.0× python-chess",
                                                                 "Big Two whole process ≥ 2.0× python-chess's"}
    assert len(targets(data)) == len(doc["targets"])
