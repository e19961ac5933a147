"""Real logs written by others, end to end: every tenhou.net/6 sanma log under tests/data/
(tenhou/, tenhou-more/), Tenhou's mjlog XML (tenhou-mjlog/) and the four-player logs
(tenhou-yonma/, the 00a9 mjlog) as refused input; the mjai export and import; bad input to
the importers. Each folder's SOURCE.txt names where its files come from.

Expected values come from the logs themselves (Tenhou's own deltas, yaku and points, and for
the 2014 mjlog game kobalab's independent conversion of it, 2014091101gm-...majiang.json)
or are worked by hand from Tenhou's rules, never from paifu's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paifu.notation import Tag, parse, write_record
from paifu.notation.mjai import read_mjai, to_events, write_mjai
from paifu.notation.mjlog import decode_meld, read_mjlog
from paifu.notation.tenhou import TenhouError, commands, read_log, to_log
from paifu.replay.validate import validate

DATA = Path(__file__).parent / "data"
SANMA = sorted((DATA / "tenhou").glob("*.json")) + sorted((DATA / "tenhou-more").glob("*.json"))
HANDMADE = sorted((DATA / "tenhou-handmade").glob("*.json"))
MJLOG = DATA / "tenhou-mjlog"
MJLOG_SANMA = sorted(MJLOG.glob("*-00b9-*.mjlog.xml"))
YONMA = sorted((DATA / "tenhou-yonma").glob("*.json"))


def _replayed(record):
    """The record written, read back and validated: its report (no error expected)."""
    report = validate(parse(write_record(record)))
    assert [d.format() for d in report.diagnostics] == []
    assert report.valid
    return report


def test_the_real_logs_are_there_with_their_sources():
    assert len(SANMA) == 9 and len(MJLOG_SANMA) == 3 and len(YONMA) == 10
    for folder in ("tenhou", "tenhou-more", "tenhou-mjlog", "tenhou-yonma"):
        assert (DATA / folder / "SOURCE.txt").read_text(encoding="utf-8").strip()


# --------------------------------------------------------------------------- tenhou.net/6 JSON


@pytest.mark.parametrize("path", SANMA, ids=lambda p: p.name)
def test_each_real_sanma_log_imports_validates_and_exports_field_by_field(path: Path):
    text = path.read_text(encoding="utf-8")
    log = json.loads(text)
    record = read_log(text, str(path))
    report = _replayed(record)
    # every round: the replay's settlement moves the scores as the log's own scores move
    ends = [r[1][:3] for r in log["log"][1:]] + [log["sc"][0:6:2]]
    assert len(report.hands) == len(log["log"])
    for k, (hand, rnd) in enumerate(zip(report.hands, log["log"])):
        assert hand.computed == {s: ends[k][i] - rnd[1][i] for i, s in enumerate("ABC")}, k
    back = to_log(record)
    for key, value in log.items():
        if key != "log":
            assert back[key] == value, key
    for i, (a, b) in enumerate(zip(log["log"], back["log"], strict=True)):
        for j, (x, y) in enumerate(zip(a, b, strict=True)):
            if j in (4, 7, 10):  # the deal is written sorted: the same tiles
                x, y = sorted(x), sorted(y)
            assert x == y, (i, j)


@pytest.mark.parametrize("path", YONMA, ids=lambda p: p.name)
def test_each_four_player_log_is_refused_at_the_entry_that_says_so(path: Path):
    text = path.read_text(encoding="utf-8")
    with pytest.raises(TenhouError) as err:
        read_log(text, str(path))
    e = err.value
    assert str(e).startswith(f"{path}:{e.line}:{e.col}: I601 ")
    at = text.splitlines()[e.line - 1][e.col - 1:]
    data = json.loads(text)
    if data["name"][3]:  # a fourth player named: the place is the "name" list
        assert "'name' must list four seats with the fourth empty" in e.message and at.startswith("[")
    else:  # confusing_nakis_2 names no fourth player, but seats one with 25000 points
        assert "four-player game" in e.message and at.startswith("25000")


def test_a_fourth_seats_points_and_an_empty_log_are_refused():
    text = (DATA / "tenhou" / "chankan.json").read_text(encoding="utf-8")
    data = json.loads(text)
    data["log"][0][1][3] = 35000  # a four-player start: four scores
    with pytest.raises(TenhouError, match=r"E1-0 \(log\[0\]\): the fourth seat starts the round with 35000 points"):
        read_log(json.dumps(data, ensure_ascii=False), "four.json")
    data = json.loads(text)
    data["sc"][6] = 25000
    with pytest.raises(TenhouError, match="the final scores 'sc' give the fourth seat 25000"):
        read_log(json.dumps(data, ensure_ascii=False), "four.json")
    data = json.loads(text)
    data["log"] = []
    with pytest.raises(TenhouError) as err:
        read_log(json.dumps(data, ensure_ascii=False, indent=1), "empty.json")
    assert "the log holds no round" in str(err.value) and err.value.line > 1


def test_a_call_keeps_the_order_of_its_tiles_as_the_log_had_it():
    # chankan.json E2: B pons C's 5s, called from the seat after him, with a red and a plain
    # five: "5335p35". Write the same pon "3553p35" (the plain five first, as logs also do):
    # the import keeps the string and the export gives it back, not the exporter's own order.
    text = (DATA / "tenhou" / "chankan.json").read_text(encoding="utf-8")
    assert text.count('"5335p35"') == 1
    record = read_log(text.replace('"5335p35"', '"3553p35"'))
    pon = [e for h in record.hands for e in h.events if e.verb == "pon" and any("call=" in c for c in e.comments)]
    assert [(e.seat, e.cards(), e.comments) for e in pon] == [("B", ["5s"], ["[%tenhou call=3553p35]"])]
    back = to_log(parse(write_record(record)))
    assert "3553p35" in json.dumps(back) and "5335p35" not in json.dumps(back)
    # the exporter's own order needs no comment: no real log here carries one
    assert not any("call=" in c for p in SANMA for h in read_log(p.read_text(encoding="utf-8")).hands
                   for e in h.events for c in e.comments)


def test_the_kept_call_string_is_only_used_when_it_is_that_call():
    # a call= command naming tiles the hand does not hold (edited by hand) is not written:
    # the exporter picks the tiles itself
    text = (DATA / "tenhou" / "chankan.json").read_text(encoding="utf-8").replace('"5335p35"', '"3553p35"')
    written = write_record(read_log(text)).replace("call=3553p35", "call=3535p35")
    back = json.dumps(to_log(parse(written)))
    assert "5335p35" in back and "3535p35" not in back


# --------------------------------------------------------------------------- Tenhou's rules


def test_a_north_extracted_in_riichi_ends_ippatsu_under_tenhou():
    """rules=tenhou: an extracted North counts as a call (Tenhou's three-player rules: 北抜きは
    鳴きと同じ扱い, 一発・地和・九種九牌・両立直 are lost), where the rule text (「三人麻雀」のルール
    ver. 1.3, rule 27) keeps ippatsu. The hand-made log plays the issue's case: B declares
    riichi on his second discard, draws a North next turn, extracts it and wins on the
    replacement 4s: 123p 567p 678p 234s 66s, all runs, a two-sided wait.
    Tenhou: 立直 1 + 嶺上開花 1 + 門前清自摸和 1 + 平和 1 + the North 1 (ドラ) = 5 han 満貫, a
    non-dealer's tsumo: 4000 from the dealer A, 2000 from C; B's riichi stick comes back to
    him: A -4000, B +6000, C -2000. With 一発 it would be 6 han 跳満 (6000 / 3000)."""
    path = DATA / "tenhou-handmade" / "riichi_kita_rinshan.json"
    record = read_log(path.read_text(encoding="utf-8"))
    b = [(e.verb, e.cards()) for e in record.hands[0].events if e.seat == "B"]
    assert b[-6:] == [("draw", ["9m"]), ("riichi", ["9m"]), ("draw", ["4z"]), ("nuki", ["4z"]), ("draw", ["4s"]),
                      ("win", ["4s"])]
    report = _replayed(record)
    assert report.hands[0].computed == {"A": -4000, "B": 6000, "C": -2000}
    # the log claiming 一発 (6 han, 跳満) is a disagreement the replay names
    text = write_record(record).replace("yaku=平和(1飜)", "yaku=平和(1飜) yaku=一発(1飜)")
    messages = [d.message for d in validate(parse(text)).diagnostics if d.code == "S404"]
    assert "B's yaku 一発: log 1, replay none han" in messages


def test_mahjong_soul_double_yakuman_is_read_from_the_log():
    """Mahjong Soul's ranked rules count 国士無双十三面 double: a non-dealer's ron is 2 × 32000
    = 64000, written 役満64000点 with the yaku 国士無双十三面待ち(役満). The log names its room
    (三金の間赤), so the import sets double_yakuman=yes; B rons A's 1m with all thirteen
    kinds in hand (a 13-sided wait)."""
    path = DATA / "tenhou-handmade" / "majsoul_kokushi13.json"
    text = path.read_text(encoding="utf-8")
    record = read_log(text)
    assert "double_yakuman=yes" in [t.value for t in record.option_tags()]
    report = _replayed(record)
    assert report.hands[0].computed == {"A": -64000, "B": 64000, "C": 0}
    # the same game in a Tenhou room: one yakuman (Tenhou: 国士無双十三面待ち等はすべてシングル役満)
    tenhou = (text.replace("三金の間赤", "三鳳南喰赤").replace("役満64000点", "役満32000点")
              .replace("-64000,64000", "-32000,32000").replace("[-29000,0,99000", "[3000,0,67000"))
    record = read_log(tenhou)
    assert "double_yakuman=yes" not in [t.value for t in record.option_tags()]
    assert _replayed(record).hands[0].computed == {"A": -32000, "B": 32000, "C": 0}


def test_the_real_mahjong_soul_logs_read_as_mahjong_soul():
    for name in ("chankan.json", "kokushi_ankan.json", "kokushi_peinuki.json"):
        record = read_log((DATA / "tenhou" / name).read_text(encoding="utf-8"))
        assert "double_yakuman=yes" in [t.value for t in record.option_tags()], name
    record = read_log((DATA / "tenhou" / "double_nukidora.json").read_text(encoding="utf-8"))
    assert "double_yakuman=yes" not in [t.value for t in record.option_tags()]


@pytest.mark.parametrize("kind,name", [("流し満貫", "流し満貫"), ("四槓散了", "四槓散了")])
def test_draws_paifu_does_not_settle_are_refused(kind, name):
    data = json.loads((DATA / "tenhou" / "double_nukidora.json").read_text(encoding="utf-8"))
    data["log"][1][-1] = [kind, [0, 0, 0, 0]]
    with pytest.raises(TenhouError, match=f"E1-1 \\(log\\[1\\]\\): the result '{name}' is not supported"):
        read_log(json.dumps(data, ensure_ascii=False), "x.json")


# --------------------------------------------------------------------------- mjlog XML


def test_meld_bits_decode_as_the_public_description_says():
    # from the 2014 game: <D135/><N who="2" m="51722"/>: seat 2 pons seat 0's 135 (a red
    # dragon, kind 33), from across (m & 3 = 2); m="31520": a North (id 123) set aside;
    # <D131/><N who="1" m="50219"/>: seat 1 pons seat 0's 131 (a green dragon, kind 32), from
    # the seat before (3); <E105/><N who="2" m="26883"/>: seat 2 makes an open kan of seat 1's
    # 105 (a 9s, ids 104-107); from the 2018 game, <N who="1" m="19456"/>: a closed kan of
    # 1s (ids 76-79), from the caller himself (0)
    p = decode_meld(51722)
    assert (p.kind, p.called, p.source, [t // 4 for t in p.tiles]) == ("pon", 135, 2, [33, 33, 33])
    assert (decode_meld(31520).kind, decode_meld(31520).tiles) == ("nuki", [123])
    green = decode_meld(50219)
    assert (green.kind, green.called, green.source, {t // 4 for t in green.tiles}) == ("pon", 131, 3, {32})
    nine = decode_meld(26883)
    assert (nine.kind, nine.called, nine.source, nine.tiles) == ("kan", 105, 3, [104, 105, 106, 107])
    kan = decode_meld(19456)
    assert (kan.kind, kan.tiles, kan.source) == ("closed", [76, 77, 78, 79], 0)


@pytest.mark.parametrize("path", MJLOG_SANMA, ids=lambda p: p.name)
def test_each_real_mjlog_imports_and_agrees_with_its_own_results(path: Path):
    record = read_mjlog(path.read_text(encoding="utf-8"), str(path))
    ref = path.name.split(".")[0]
    assert record.tag("Site") == f"tenhou.net/0/?log={ref}" and record.tag("Event") == "三鳳南喰赤"
    report = _replayed(record)
    # the log's own figures: every <AGARI>/<RYUUKYOKU> sc delta (in hundreds) is the score
    # line's movement, less this round's riichi sticks; the last one's owari is the total
    import re

    text = path.read_text(encoding="utf-8")
    results = re.findall(r'<(?:AGARI|RYUUKYOKU)[^>]* sc="([^"]+)"', text)
    assert len(results) == len(report.hands)
    for hand, sc in zip(record.hands, results):
        moved = [100 * int(x) for x in sc.split(",")[1::2]][:3]
        score = next(e for e in hand.events if e.verb == "score")
        assert commands(score)["deltas"] == [",".join(f"{x:+d}" for x in moved)]
    owari = re.findall(r'owari="([^"]+)"', text)[-1].split(",")
    total = next(e for e in record.hands[-1].events if e.verb == "total")
    assert [a.value for a in total.args[1::2]] == [100 * int(x) for x in owari[0:6:2]]


def test_the_2014_mjlog_agrees_with_kobalabs_conversion_of_the_same_game():
    """kobalab's majiang JSON of 2014091101gm-00b9-0000-5ca6b487, written by another program
    from the same game: each round's plays (draws, discards, Norths, calls), its deltas
    (fenpei, by seat from the round's East) and its yaku (hupai, zero-han ones left out, as
    Tenhou's own logs leave them) are the mjlog import's."""
    base = MJLOG / "2014091101gm-00b9-0000-5ca6b487"
    record = read_mjlog((base.parent / (base.name + ".mjlog.xml")).read_text(encoding="utf-8"))
    majiang = json.loads((base.parent / (base.name + ".majiang.json")).read_text(encoding="utf-8"))
    assert len(record.hands) == len(majiang["log"]) == 11

    def code(p: str) -> str:
        return p[1] + p[0]

    for k, (hand, rnd) in enumerate(zip(record.hands, majiang["log"])):
        jushu = rnd[0]["qipai"]["jushu"]
        ours = []
        for e in hand.events:
            if e.verb in ("draw", "discard", "riichi", "nuki"):
                ours.append(("ABC".index(e.seat), e.verb, e.cards()[0]))
            elif e.verb in ("pon", "kong"):
                ours.append(("ABC".index(e.seat), e.verb, e.cards()[0].replace("0", "5")))
        theirs = []
        for entry in rnd[2:]:  # qipai, then the dealer's first zimo (in paifu's deal line)
            (kind, v), = entry.items()
            seat = (v.get("l", 0) + jushu) % 3
            if kind in ("zimo", "gangzimo"):
                theirs.append((seat, "draw", code(v["p"])))
            elif kind == "dapai":
                theirs.append((seat, "riichi" if v["p"].endswith("*") else "discard", code(v["p"][:2])))
            elif kind == "penuki":
                theirs.append((seat, "nuki", "4z"))
            elif kind == "fulou":
                bare = v["m"].rstrip("+=-")
                theirs.append((seat, "pon" if len(bare) == 4 else "kong", code(bare[:2]).replace("0", "5")))
            elif kind == "gang":
                theirs.append((seat, "kong", code(v["m"][:2]).replace("0", "5")))
        assert ours == theirs, k
        (kind, v), = rnd[-1].items()
        by_seat = [0, 0, 0]
        for menfeng in range(3):
            by_seat[(menfeng + jushu) % 3] = v["fenpei"][menfeng]
        score = next(e for e in hand.events if e.verb == "score")
        assert commands(score)["deltas"] == [",".join(f"{x:+d}" for x in by_seat)], k
        if kind == "hule":
            yaku = sorted(y for e in hand.events if e.verb == "win" for y in commands(e)["yaku"])
            assert yaku == sorted(f"{h['name']}({h['fanshu']}飜)" for h in v["hupai"] if h["fanshu"]), k


def test_the_four_player_mjlog_is_refused_at_its_room():
    path = MJLOG / "2018010604gm-00a9-0000-bbc99254.mjlog.xml"
    text = path.read_text(encoding="utf-8")
    with pytest.raises(TenhouError) as err:
        read_mjlog(text, str(path))
    e = err.value
    assert str(e).startswith(f"{path}:{e.line}:{e.col}: I601 <GO type=\"169\">: a four-player game")
    assert text.splitlines()[e.line - 1][e.col - 1:].startswith('<GO type="169"')


def _mjlog(mutate) -> str:
    text = (MJLOG / "2018110809gm-00b9-0000-00a79b89.mjlog.xml").read_text(encoding="utf-8")
    return mutate(text)


@pytest.mark.parametrize("mutate,message,at", [
    (lambda t: t.replace("<mjloggm", "<mjlog", 1).replace("</mjloggm>", "</mjlog>"), "root element is <mjloggm>", "<mjlog "),
    (lambda t: t[:2000], "not XML", None),
    (lambda t: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>' + t, "no DOCTYPE", None),
    (lambda t: t.replace('<N who="0" m="31008" />', '<N who="0" m="31007" />', 1), "is a chi", '<N who="0" m="31007"'),
    (lambda t: t.replace("<T69/>", "<T169/>", 1), "tile id 169 is not 0–135", "<T169/>"),
    (lambda t: t.replace('<RYUUKYOKU', '<X', 1) if "<RYUUKYOKU" in t else t.replace(
        '<AGARI ba="0,0"', '<RYUUKYOKU type="nm" ba="0,0"', 1), "(流し満貫) is not supported", '<RYUUKYOKU type="nm"'),
    (lambda t: t.replace('yaku="9,1,52,1"', 'yaku="99,1,52,1"', 1), "names yaku 99", "<AGARI"),
])
def test_a_bad_mjlog_is_a_located_error(mutate, message, at):
    text = _mjlog(mutate)
    with pytest.raises(TenhouError) as err:
        read_mjlog(text, "bad.mjlog")
    e = err.value
    assert message in str(e) and str(e).startswith(f"bad.mjlog:{e.line}:{e.col}: I601 ")
    if at is not None:
        assert text.splitlines()[e.line - 1][e.col - 1:].startswith(at)


def test_a_gzip_mjlog_reads_as_the_plain_one(tmp_path, capsys):
    import gzip

    from paifu.cli import main

    source = MJLOG_SANMA[0]
    packed = tmp_path / source.name.replace(".xml", "")
    packed.write_bytes(gzip.compress(source.read_bytes()))
    assert main(["import", "mjlog", str(packed)]) == 0
    assert capsys.readouterr().out == write_record(read_mjlog(source.read_text(encoding="utf-8"), str(packed)))
    (tmp_path / "broken.mjlog").write_bytes(gzip.compress(source.read_bytes())[:40])
    assert main(["import", "mjlog", str(tmp_path / "broken.mjlog")]) == 1
    assert "I601 a gzip mjlog that cannot be inflated" in capsys.readouterr().err


# --------------------------------------------------------------------------- mjai


@pytest.mark.parametrize("path", SANMA + HANDMADE, ids=lambda p: p.name)
def test_mjai_export_reads_back_to_the_same_events_and_a_record_that_agrees(path: Path):
    record = read_log(path.read_text(encoding="utf-8"), str(path))
    text = write_mjai(record)
    events = [json.loads(line) for line in text.splitlines()]
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    starts = [e for e in events if e["type"] == "start_kyoku"]
    assert len(starts) == len(record.hands) == sum(e["type"] == "end_kyoku" for e in events)
    assert all(len(e["tehais"]) == 3 and all(len(t) == 13 for t in e["tehais"]) and len(e["scores"]) == 3 for e in starts)
    log = json.loads(path.read_text(encoding="utf-8"))
    assert [e["scores"] for e in starts] == [r[1][:3] for r in log["log"]]
    # each round's hora/ryukyoku deltas are the log's own (the sticks taken by reach_accepted left out)
    ours = [[e["deltas"] for e in events[i:] if e["type"] in ("hora", "ryukyoku")][:1] for i, e in enumerate(events)
            if e["type"] == "start_kyoku"]
    (back,) = read_mjai(text, "x.jsonl")
    assert write_mjai(back) == text
    if path.name == "majsoul_kokushi13.json":
        # mjai names no room and no rules: Mahjong Soul's double yakuman is not in the stream
        assert "double_yakuman=yes" not in [t.value for t in back.option_tags()]
        back.tags.append(Tag(name="Option", value="double_yakuman=yes"))
    _replayed(back)
    for hand, first in zip(log["log"], ours):
        if hand[-1][0] != "九種九牌" and len(hand[-1]) == 3 and path.name != "kokushi_peinuki.json":
            assert first == [hand[-1][1][:3]]


def test_mjai_north_spelling_for_riichienv():
    record = read_log((DATA / "tenhou" / "double_nukidora.json").read_text(encoding="utf-8"))
    kita = [e["type"] for e in to_events(record, "kita")]
    nuki = [e["type"] for e in to_events(record)]
    assert kita.count("kita") == nuki.count("nukidora") > 0 and "nukidora" not in kita
    (back,) = read_mjai(write_mjai(record, "kita"))
    assert write_mjai(back) == write_mjai(record)


def test_riichienv_takes_every_play_of_the_export_as_legal():
    """riichienv (PyPI, Apache-2.0), a maintained mjai engine with three-player rules, replays
    each exported game event by event and is asked, before each play, whether the play is
    among its legal actions (Observation.select_action_from_mjai). It takes every play of the
    Tenhou games; of the Mahjong Soul ones, it refuses only the two wins that rob a kong
    (chankan.json E2: an added red 5p robbed; kokushi_ankan.json: thirteen orphans robbing a
    closed kong, which Tenhou does not allow either)."""
    riichienv = pytest.importorskip("riichienv")
    refused: list[tuple[str, str]] = []
    plays = 0
    for path in SANMA:
        events = to_events(read_log(path.read_text(encoding="utf-8")), "kita")
        env = riichienv.RiichiEnv(game_mode="3p-red-half", rule=riichienv.GameRule.default_tenhou())
        for i, ev in enumerate(events):
            if ev["type"] in ("dahai", "pon", "daiminkan", "kakan", "ankan", "kita", "reach", "hora") and not (
                    ev["type"] == "hora" and events[i - 1]["type"] == "hora"):
                plays += 1
                obs = env.get_observation(ev["actor"])
                if obs is None or obs.select_action_from_mjai(ev) is None:
                    refused.append((path.name, ev["type"]))
            env.apply_event(ev)
    assert plays == 2108  # the plays of the nine logs: dahai, pon, kan, kita, reach, hora
    assert refused == [("chankan.json", "hora"), ("kokushi_ankan.json", "hora")]


@pytest.mark.parametrize("line,message", [
    ('{"type":"start_kyoku"', "not JSON"),
    ('{"type":"tsumo","actor":0,"pai":"5p","n":' + "9" * 5000 + "}", "not read as JSON"),
    ("[" * 100_000 + "]" * 100_000, "not read as JSON"),
    ('{"type":"tsumo","actor":3,"pai":"5p"}', "is not a seat 0-2"),
    ('{"type":"tsumo","actor":0,"pai":"2m5"}', "'2m5' is not an mjai tile"),
    ('{"type":"chi","actor":1,"target":0,"pai":"3p","consumed":["1p","2p"]}', "no chi"),
    ('"\\ud800"', "half a surrogate pair"),  # refused as JSON before its shape is looked at
    ('"x"', "an mjai event is a JSON object"),
    ('{"type":"start_game","names":["\\ud800","B","C"]}', "half a surrogate pair"),
])
def test_a_bad_mjai_line_is_a_located_error(line, message):
    record = read_log((DATA / "tenhou-handmade" / "double_ron.json").read_text(encoding="utf-8"))
    lines = write_mjai(record).splitlines()
    lines.insert(3, line)
    with pytest.raises(TenhouError) as err:
        read_mjai("\n".join(lines), "bad.jsonl")
    assert message in str(err.value)
    assert str(err.value).startswith("bad.jsonl:4:")


def test_a_four_player_mjai_game_is_refused():
    record = read_log((DATA / "tenhou-handmade" / "double_ron.json").read_text(encoding="utf-8"))
    events = to_events(record)
    events[0]["names"].append("D")
    with pytest.raises(TenhouError, match="start_game names four players"):
        read_mjai("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events))
    events = to_events(record)
    events[1]["scores"].append(25000)
    with pytest.raises(TenhouError, match="a four-player game"):
        read_mjai("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events))


# --------------------------------------------------------------------------- the command line


def test_cli_imports_each_format_and_leaves_no_file_when_nothing_reads(tmp_path, capsys):
    from paifu.cli import main

    out = tmp_path / "games.paifu"
    assert main(["import", "mjlog", str(MJLOG), "-o", str(out)]) == 1  # the 00a9 game is refused, the others read
    err = capsys.readouterr().err
    assert "2018010604gm-00a9-0000-bbc99254.mjlog.xml:1:" in err and "four-player game" in err
    assert main(["validate", str(out)]) == 0
    assert "3 record(s): 3 valid" in capsys.readouterr().out
    mjai = tmp_path / "games.jsonl"
    assert main(["export", "mjai", str(out), "-o", str(mjai)]) == 0
    assert sum(json.loads(line)["type"] == "start_game" for line in mjai.read_text(encoding="utf-8").splitlines()) == 3
    again = tmp_path / "again.paifu"
    assert main(["import", "mjai", str(mjai), "-o", str(again)]) == 0
    assert main(["validate", str(again)]) == 0
    capsys.readouterr()
    # nothing read: no output file at all, not an empty one, and an existing one left as it was
    none = tmp_path / "none.paifu"
    assert main(["import", "tenhou", str(DATA / "tenhou-yonma"), "-o", str(none)]) == 1
    assert not none.exists()
    empty = tmp_path / "empty.json"
    empty.write_text('{"name":["A","B","C",""],"log":[]}', encoding="utf-8")
    out.write_text("kept\n", encoding="utf-8")
    assert main(["import", "tenhou", str(empty), "-o", str(out)]) == 1
    assert "the log holds no round" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.paifu", "empty.json", "games.jsonl", "games.paifu"]


def test_tenhou_has_no_open_riichi_and_mjai_cannot_write_one(tmp_path, capsys):
    """The rule text's オープン立直 (「三人麻雀」のルール ver. 1.3, rule 21) is not Tenhou's: under
    rules=tenhou it is refused (L301); mjai has no such event, so a seed record holding one
    is refused by the export (I602), located at the record."""
    record = read_log((DATA / "tenhou-handmade" / "riichi_kita_rinshan.json").read_text(encoding="utf-8"))
    text = write_record(record)
    assert text.count("B: riichi 9m") == 1
    report = validate(parse(text.replace("B: riichi 9m", "B: riichi open 9m")))
    line = text.splitlines().index(next(ln for ln in text.splitlines() if ln.startswith("B: riichi 9m"))) + 1
    assert [(d.code, d.line) for d in report.diagnostics if d.code.startswith("L")] == [("L301", line)]
    assert "no open riichi" in next(d.message for d in report.diagnostics if d.code == "L301")
    from paifu.cli import main

    seed = tmp_path / "open.paifu"
    seed.write_text(text.replace("B: riichi 9m", "B: riichi open 9m"), encoding="utf-8")
    assert main(["export", "mjai", str(seed), "-o", str(tmp_path / "open.jsonl")]) == 1
    assert f"{seed}:1:1: I602 this record cannot be written as mjai events: B's open riichi" in capsys.readouterr().err
    assert not (tmp_path / "open.jsonl").exists()


def test_selfplay_under_tenhou_goes_through_mjai_and_back():
    # a record made elsewhere: its indicators only in wall lines (no dora lines), so mjai's
    # dora_marker is "?" and the import writes none; every play and score still replays
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    record = selfplay_record(games.engine("sanma"), 11, 4, {"rules": "tenhou"})
    assert validate(parse(write_record(record))).valid
    text = write_mjai(record)
    (back,) = read_mjai(text)
    report = validate(parse(write_record(back)))
    assert report.valid and not [d for d in report.diagnostics if d.severity == "error"]
    assert [h.written for h in report.hands] == [h.written for h in validate(parse(write_record(record))).hands]
