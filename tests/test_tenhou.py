"""paifu import/export tenhou: tenhou.net/6 sanma logs (tests/data/tenhou/, Apache-2.0, see
SOURCE.txt) become sanma records under rules=tenhou that replay in agreement with the logs'
own results, round by round, and are written back to the same log fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paifu.notation import parse, same_content, write_record
from paifu.notation.tenhou import TenhouError, read_log, to_log
from paifu.replay.validate import validate

DATA = Path(__file__).parent / "data" / "tenhou"
SAMPLES = sorted(DATA.glob("*.json"))
ROUNDS = {"chankan.json": 3, "double_nukidora.json": 12, "kokushi_ankan.json": 1, "kokushi_peinuki.json": 4}


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def test_the_four_samples_are_there():
    assert sorted(p.name for p in SAMPLES) == sorted(ROUNDS)
    assert "Apache-2.0" in (DATA / "SOURCE.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_each_sample_imports_parses_and_agrees_round_by_round(path: Path):
    record = read_log(path.read_text(encoding="utf-8"), str(path))
    assert record.game == "sanma"
    assert "rules=tenhou" in [t.value for t in record.option_tags()]
    assert len(record.hands) == ROUNDS[path.name]
    text = write_record(record)
    again = parse(text)
    assert same_content(record, again)
    report = validate(again, str(path))
    assert [d.format() for d in report.diagnostics] == []
    assert report.valid
    # every round: the replay's deltas are the log's (the score line), every win was checked
    log = json.loads(path.read_text(encoding="utf-8"))
    ends = [r[1][:3] for r in log["log"][1:]] + [log["sc"][0:6:2]]
    for k, (hand, rnd) in enumerate(zip(report.hands, log["log"])):
        assert hand.over
        # the replay's deltas are the log's: its scores move from this round's to the next's
        assert hand.computed == {s: ends[k][i] - rnd[1][i] for i, s in enumerate("ABC")}
        assert hand.written == hand.computed
        if rnd[-1][0] == "和了":  # each win carries the log's figures, checked (S404) by the replay
            wins = [e for e in again.hands[k].events if e.verb == "win"]
            assert len(wins) == (len(rnd[-1]) - 1) // 2
            assert all(any("[%tenhou win=" in c for c in e.comments) for e in wins)


def test_a_hand_has_55_draws_replacements_included():
    # rules=tenhou's dead wall is 14 tiles replenished from the live wall: each replacement
    # draw shortens the live wall, so a hand drawn at the exhausted wall has 108 - 3 × 13 - 14
    # = 55 draws (the dealer's first and the replacements after a North included), however
    # many Norths were extracted. The log's three exhaustive draws (E1-1, S2-0, S2-1) say so,
    # and the replay ends each of them on the same count, its live wall empty.
    from paifu.replay.mahjong.sanma.tenhou import DEAD_WALL
    from paifu.replay.validate import replay

    log = json.loads(_text("double_nukidora.json"))
    drawn = [k for k, rnd in enumerate(log["log"]) if rnd[-1][0] == "流局"]
    takes = [sum(isinstance(t, int) for seat in (5, 8, 11) for t in log["log"][k][seat]) for k in drawn]
    norths = [sum(d == "f44" for seat in (6, 9, 12) for d in log["log"][k][seat]) for k in drawn]
    assert (drawn, takes, norths) == ([1, 7, 8], [55, 55, 55], [4, 3, 4])
    assert 108 - 3 * 13 - DEAD_WALL == 55
    last: dict[int, tuple[int, int]] = {}

    def at_the_end(step) -> None:
        wall = step.state.wall
        last[step.hand_index] = (wall.live, 1 + wall.head + (wall.size - wall.tail))  # the dealer's 14th, head, tail

    record = parse(write_record(read_log(_text("double_nukidora.json"), "double_nukidora.json")))
    assert replay(record, on_step=at_the_end).valid
    assert [last[k] for k in drawn] == [(0, 55)] * 3


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_export_gives_back_the_logs_fields(path: Path):
    source = json.loads(path.read_text(encoding="utf-8"))
    back = to_log(read_log(path.read_text(encoding="utf-8"), str(path)))
    for key, value in source.items():
        if key != "log":
            assert back[key] == value, key
    assert len(back["log"]) == len(source["log"])
    for i, (a, b) in enumerate(zip(source["log"], back["log"])):
        for j, (x, y) in enumerate(zip(a, b)):
            if j in (4, 7, 10):  # the deal is written sorted: the same tiles
                x, y = sorted(x), sorted(y)
            assert x == y, (i, j)


def test_the_scores_movement_is_the_score_line():
    # kokushi_peinuki, last round: A's riichi stick (1000) goes to C with the 48000 of the
    # dealer's yakuman; the log's deltas say +48000 but its final score moved C by 49000
    # (45000 -> 94000) and A by -49000 (15400 -> -33600): the score line follows the scores
    record = read_log(_text("kokushi_peinuki.json"))
    score = next(e for e in record.hands[-1].events if e.verb == "score")
    assert [a.value for a in score.args[1::2]] == [-49000, 0, 49000]
    assert any("differ from its scores' movement for C" in c for c in score.comments)


def test_a_disagreement_names_both_figures():
    # chankan round 3: C's ron is 30 fu 3 han (役牌 發 1, ドラ 2) for 5800: write 40 fu and 發 2
    text = write_record(read_log(_text("chankan.json")))
    bad = text.replace("30符3飜5800点", "40符3飜5800点").replace("yaku=役牌 發(1飜)", "yaku=役牌 發(2飜)")
    report = validate(parse(bad))
    messages = [d.message for d in report.diagnostics if d.code == "S404"]
    assert "C's fu: log 40, replay 30" in messages
    assert "C's yaku 役牌 (發): log 2, replay 1 han" in messages
    line = next(i for i, l in enumerate(bad.splitlines(), 1) if "40符3飜5800点" in l)
    assert all(d.line == line for d in report.diagnostics if d.code == "S404")


def _broken(mutate) -> TenhouError:
    data = json.loads(_text("kokushi_peinuki.json"))
    mutate(data)
    with pytest.raises(TenhouError) as err:
        read_log(json.dumps(data, ensure_ascii=False, indent=1), "x.json")
    return err.value


def test_unmapped_entries_are_located_errors():
    e = _broken(lambda d: d["log"][1][-1].__setitem__(0, "流し満貫"))
    assert "E2-0 (log[1])" in str(e) and "'流し満貫' is not supported" in str(e) and e.line > 1
    e = _broken(lambda d: d["log"][0][5].__setitem__(2, "c111213"))
    assert "seat A takes 'c111213' where a drawn tile is due" in str(e)
    e = _broken(lambda d: d["log"][0][4].__setitem__(0, 99))
    assert "99 is not a tenhou tile number" in str(e)
    e = _broken(lambda d: d.__setitem__("extra", 1))
    assert "unknown log field(s) 'extra'" in str(e)
    e = _broken(lambda d: d["log"][0][6].append(11))
    assert "never reached" in str(e) or "still had a turn" in str(e)
    # the place is the entry's own line and column in the JSON text
    text = json.dumps(json.loads(_text("kokushi_peinuki.json")), ensure_ascii=False, indent=1)
    data = json.loads(text)
    data["log"][0][4][0] = 99
    text = json.dumps(data, ensure_ascii=False, indent=1)
    with pytest.raises(TenhouError) as err:
        read_log(text, "x.json")
    line = text.splitlines()[err.value.line - 1]
    assert line[err.value.col - 1:].startswith("99")
    assert str(err.value).startswith(f"x.json:{err.value.line}:{err.value.col}: I601 E1-0 (log[0])")


def test_cli_import_validate_export(tmp_path, capsys):
    from paifu.cli import main

    out = tmp_path / "all.paifu"
    assert main(["import", "tenhou", str(DATA), "-o", str(out)]) == 0
    assert main(["validate", str(out)]) == 0
    assert "4 record(s): 4 valid" in capsys.readouterr().out
    assert main(["export", "tenhou", str(out)]) == 0
    logs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [len(x["log"]) for x in logs] == [ROUNDS[p.name] for p in SAMPLES]
    bad = tmp_path / "bad.json"
    data = json.loads(_text("chankan.json"))
    data["log"][0][-1] = ["流し満貫", [0, 0, 0, 0]]
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["import", "tenhou", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:1:" in err and "I601 E1-0 (log[0]): the result '流し満貫' is not supported" in err


HANDMADE = Path(__file__).parent / "data" / "tenhou-handmade"


def _events(record, k):
    return [(e.seat, e.verb, e.cards()) for e in record.hands[k].events]


def test_handmade_double_ron():
    # A (dealer) discards 5z; B (123p 456p 789p 11s 55z) and C (123s 456s 789s 111z 5z) both
    # ron. B: 一気通貫 2 + 役牌 白 1 = 3 han, 40 fu (20 + 門前加符 10 + 555z won on a discard,
    # an open pung of honours 4 = 34 → 40): 40 × 2^5 × 4 = 5120 → 5200. C: 混一色 3 +
    # 一気通貫 2 + 場風 東 1 = 6 han 跳満: 3000 × 4 = 12000. A pays 17200.
    record = read_log((HANDMADE / "double_ron.json").read_text(encoding="utf-8"))
    wins = [ev for ev in _events(record, 0) if ev[1] == "win"]
    assert wins == [("B", "win", ["5z"]), ("C", "win", ["5z"])]
    report = validate(parse(write_record(record)))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert report.hands[0].computed == {"A": -17200, "B": 5200, "C": 12000}


def test_handmade_kita_and_kongs_with_rinshan():
    # round 1: A (dealer) sets three Norths aside, each replacement draw in turn, and wins on
    # the third: 門前清自摸和 1 + 嶺上開花 1 + 一気通貫 2 + 抜きドラ 3 = 7 han 跳満, a dealer's
    # tsumo 6000 from each of B and C (tsumo loss: no North share).
    # round 2 (one honba): C makes an open kong of A's 7z and wins on the replacement tile:
    # 嶺上開花 1 + 役牌 中 1 + 一気通貫 (open) 1 + 混一色 (open) 2 = 5 han 満貫, a non-dealer's
    # tsumo 4000 from the dealer and 2000 from B, each + 100 for the honba; the open kong's
    # indicator is never turned (the win comes before the konger's discard).
    # round 3: B (dealer) makes a closed kong of 1s; its kan dora indicator 9s (dora 1s) is
    # turned with the replacement draw 7z, on which B wins: 門前清自摸和 1 + 嶺上開花 1 +
    # 一気通貫 2 + ドラ 6 (77z under the first indicator 6z: 2; the four 1s under 9s: 4) =
    # 10 han 倍満, a dealer's tsumo 8000 from each of A and C.
    record = read_log((HANDMADE / "kita_kong_rinshan.json").read_text(encoding="utf-8"))
    first = _events(record, 0)
    assert [ev[1] for ev in first if ev[0] == "A"][-8:] == ["draw", "nuki", "draw", "nuki", "draw", "nuki", "draw", "win"]
    second = _events(record, 1)
    assert ("C", "kong", ["7z"]) in second and [ev for ev in second if ev[1] == "dora"] == [(None, "dora", ["2z"])]
    report = validate(parse(write_record(record)))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert report.hands[0].computed == {"A": 12000, "B": -6000, "C": -6000}
    assert report.hands[1].computed == {"A": -4100, "B": -2100, "C": 6200}
    third = _events(record, 2)
    k = third.index(("B", "kong", ["1s"]))
    assert third[k + 1:k + 4] == [("B", "draw", ["7z"]), (None, "dora", ["9s"]), ("B", "win", ["7z"])]
    assert report.hands[2].computed == {"A": -8000, "B": 16000, "C": -8000}


@pytest.mark.parametrize("path", sorted(HANDMADE.glob("*.json")), ids=lambda p: p.name)
def test_handmade_logs_round_trip(path: Path):
    source = json.loads(path.read_text(encoding="utf-8"))
    back = to_log(read_log(path.read_text(encoding="utf-8")))
    for i, (a, b) in enumerate(zip(source["log"], back["log"])):
        for j, (x, y) in enumerate(zip(a, b)):
            if j in (4, 7, 10):
                x, y = sorted(x), sorted(y)
            assert x == y, (i, j)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_JUNK = st.one_of(st.integers(-5, 70), st.sampled_from(["f44", "r60", "p4242", "c212223", "x", "k4444", "44a44", "", "f43"]),
                  st.none(), st.lists(st.integers(10, 60), max_size=3))


@settings(deadline=None, max_examples=150)
@given(name=st.sampled_from([p.name for p in SAMPLES]), data=st.data())
def test_a_damaged_log_is_a_located_error_or_a_record(name, data):
    """Bad input is a located I601 error (or still a log that reads), never a traceback."""
    log = json.loads(_text(name))
    rnd = data.draw(st.integers(0, len(log["log"]) - 1))
    entry = data.draw(st.integers(0, 16))
    target = log["log"][rnd]
    if isinstance(target[entry], list) and target[entry] and data.draw(st.booleans()):
        k = data.draw(st.integers(0, len(target[entry]) - 1))
        target[entry][k] = data.draw(_JUNK)
    else:
        target[entry] = data.draw(_JUNK)
    text = json.dumps(log, ensure_ascii=False)
    try:
        record = read_log(text, "damaged.json")
    except TenhouError as err:
        assert str(err).startswith("damaged.json:") and " I601 " in str(err)
        return
    parse(write_record(record))  # what reads is a record that parses


def test_a_log_in_the_west_round_imports_and_validates():
    # A 東南戦 on Tenhou enters the West round (西入) when nobody has 40000 after the South:
    # its rounds are kyoku 8-10 (W1-W3). chankan's three rounds (E1-E3) moved to W1-W3 carry
    # no round-wind yaku, so they replay as they are; the hand lines say round=W.
    data = json.loads(_text("chankan.json"))
    for r in data["log"]:
        r[0][0] += 8
    record = read_log(json.dumps(data, ensure_ascii=False), "west.json")
    assert [h.attr("round").value for h in record.hands] == ["W", "W", "W"]
    assert [h.attr("dealer").value for h in record.hands] == ["A", "B", "C"]
    assert validate(parse(write_record(record)), "west.json").valid
    assert [r[0] for r in to_log(record)["log"]] == [r[0] for r in data["log"]]  # written back as kyoku 8-10


def test_the_south_round_passes_to_the_west_under_tenhou_only():
    # rules=tenhou: after the South round's third dealer passes the deal, the first dealer
    # deals again in the West round (西入: Tenhou's own end, which decides whether it is
    # played, is the log's; paifu does not check it). The rule text's half-game is 東南戦
    # (「三人麻雀」のルール ver. 1.3 §基本ルール 6): round=W is no round of it.
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    engine = games.engine("sanma")
    text = write_record(selfplay_record(engine, 3, 13, {"rules": "tenhou"}))
    lines = [ln.split(" {")[0] for ln in text.splitlines() if ln.startswith("hand ")]
    rounds = [next((a.split("=")[1] for a in ln.split() if a.startswith("round=")), "E") for ln in lines]
    assert "W" in rounds and rounds == sorted(rounds, key="ESW".index)  # East, then South, then West
    first_west = rounds.index("W")
    assert " dealer=A" in lines[first_west] and " dealer=C" in lines[first_west - 1]  # A dealt first (起家)
    assert validate(parse(text)).valid
    one_hand = "hand 1 dealer=A round=W\ndeal A: **************\ndeal B: *************\ndeal C: *************\n"
    seed = validate(parse('[Game "sanma"]\n\n' + one_hand))
    assert [(d.code, d.line) for d in seed.diagnostics if d.code.startswith("L")] == [("L306", 3)]
    assert "round=W: the round is E or S" in next(d.message for d in seed.diagnostics if d.code == "L306")
    tenhou = validate(parse('[Game "sanma"]\n[Option "rules=tenhou"]\n\n' + one_hand))
    assert not any(d.code == "L306" for d in tenhou.diagnostics)
