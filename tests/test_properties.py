"""Property tests: selfplay records validate, round trips hold, mutations are caught.

The foundation issue, §Tests that must exist. Games register here by their id; each
game's own properties live in its test module.
"""

from __future__ import annotations

import json

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paifu.notation import parse, same_content, write_record
from paifu.notation.model import CardsArg, Event, Hand, NumArg, OptionArg, Record, SeatArg, Tag, Variation, WordArg
from paifu.replay import games, validate
from paifu.replay.selfplay import selfplay_record

SETTINGS = settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])
BIGTWO = games.engine("bigtwo")


def bigtwo_text(seed: int) -> str:
    return write_record(selfplay_record(BIGTWO, seed, hands=2))


def codes_at(text: str) -> set[tuple[str, int]]:
    report = validate(parse(text))
    return {(d.code, d.line) for d in report.diagnostics if d.severity == "error"}


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_selfplay_records_validate(seed):
    text = bigtwo_text(seed)
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert len(report.hands) == 2 and all(h.computed == h.written for h in report.hands)
    assert sum(report.totals.values()) == 0  # settlement is zero-sum


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_round_trips_text_model_text_and_json(seed):
    text = bigtwo_text(seed)
    record = parse(text)
    assert write_record(record) == text
    from_json = Record.model_validate(json.loads(record.model_dump_json()))
    assert same_content(from_json, record) and write_record(from_json) == text


def _event_lines(text: str) -> list[int]:
    """0-based indices of seat event lines (plays and passes) that are not a hand's last play."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if len(line) > 2 and line[1] == ":" and line[0] in "ABCD":
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if not nxt.startswith("score"):
                out.append(i)
    return out


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_changed_score_is_rejected_at_its_line(seed, rnd):
    lines = bigtwo_text(seed).split("\n")
    score_lines = [i for i, l in enumerate(lines) if l.startswith("score")]
    i = rnd.choice(score_lines)
    parts = lines[i].split()
    k = rnd.randrange(4)
    value = int(parts[2 + 2 * k]) + rnd.choice([-3, -1, 1, 2, 10])
    parts[2 + 2 * k] = f"{value:+d}" if value else "0"
    lines[i] = " ".join(parts)
    assert ("S401", i + 1) in codes_at("\n".join(lines))


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_play_out_of_turn_is_rejected_at_its_line(seed, rnd):
    lines = bigtwo_text(seed).split("\n")
    i = rnd.choice(_event_lines("\n".join(lines)))
    other = rnd.choice([s for s in "ABCD" if s != lines[i][0]])
    lines[i] = other + lines[i][1:]
    assert codes_at("\n".join(lines)) == {("L302", i + 1)}


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_card_not_held_is_rejected_at_its_line(seed, rnd):
    text = bigtwo_text(seed)
    lines = text.split("\n")
    plays = [i for i in _event_lines(text) if "pass" not in lines[i]]
    i = rnd.choice(plays)
    seat, cards = lines[i][0], lines[i][3:].split()
    hand_no = sum(1 for line in lines[:i] if line.startswith("hand "))
    own_deal = [line for line in lines[:i] if line.startswith(f"deal {seat}:")][hand_no - 1].split()[2:]
    dealt = {c for line in lines[:i] if line.startswith("deal ") for c in line.split()[2:]}
    candidates = sorted(dealt - set(own_deal))  # dealt to another seat: never this seat's
    cards[rnd.randrange(len(cards))] = rnd.choice(candidates)
    if len(set(cards)) != len(cards):
        return
    lines[i] = f"{seat}: " + " ".join(cards)
    assert codes_at("\n".join(lines)) == {("L303", i + 1)}


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_dropped_event_is_rejected_at_the_next_line(seed, rnd):
    text = bigtwo_text(seed)
    lines = text.split("\n")
    i = rnd.choice(_event_lines(text))
    del lines[i]
    assert codes_at("\n".join(lines)) == {("L302", i + 1)}


# -- the notation itself: any record model survives writing and reading ---------------------
_words = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
_comment = st.text(st.characters(blacklist_characters="{}\r", blacklist_categories=("Cs", "Cc")), max_size=20)
_glyph = st.sampled_from(["!", "?", "!!", "??", "!?", "?!"])
_card = st.sampled_from([r + s for r in "23456789TJQKA" for s in "CDHS"])
_arg = st.one_of(
    st.builds(lambda cs: CardsArg(cards=cs), st.lists(_card, min_size=1, max_size=4)),
    st.builds(lambda n: CardsArg(cards=["*"] * n), st.integers(1, 13)),
    st.builds(lambda v, s: NumArg(value=v if s or v >= 0 else -v, signed=s), st.integers(-99, 99), st.booleans()),
    st.builds(lambda w: WordArg(text=w), _words.filter(lambda w: w not in ("hand",))),
    st.builds(lambda k, v: OptionArg(key=k, value=v), _words, _words),
    st.builds(lambda s: SeatArg(seat=s), st.sampled_from("ABCD")),
)


def _runs(args: list) -> list:
    """French cards are written apart: cards side by side in a line are one item (a run)."""
    out: list = []
    for a in args:
        if isinstance(a, CardsArg) and out and isinstance(out[-1], CardsArg):
            out[-1] = CardsArg(cards=out[-1].cards + a.cards)
        else:
            out.append(a)
    return out


def _event(depth: int):
    variations = st.lists(_variation(depth - 1), max_size=2) if depth > 0 else st.just([])
    return st.builds(
        lambda seat, verb, args, glyphs, comments, variations: Event(
            seat=seat, verb=verb if seat is None or verb is None else verb, args=args, glyphs=glyphs, comments=comments, variations=variations
        ),
        st.sampled_from(["A", "B", "C", "D"]),
        st.one_of(st.none(), _words.filter(lambda w: w != "hand")),
        st.lists(_arg, max_size=4).map(_runs),
        st.lists(_glyph, max_size=2),
        st.lists(_comment, max_size=2),
        variations,
    )


def _variation(depth: int):
    return st.builds(lambda c, e: Variation(comments=c, events=e), st.lists(_comment, max_size=1), st.lists(_event(depth), min_size=1, max_size=3))


def _readable(event: Event) -> bool:
    # a seat event with no verb whose first argument is a word would read back as a verb
    return not (event.verb is None and event.args and isinstance(event.args[0], WordArg))


def _all_readable(events) -> bool:
    return all(_readable(e) and all(_all_readable(v.events) for v in e.variations) for e in events)


_record = st.builds(
    lambda tags, comments, hands: Record(tags=[Tag(name="Game", value="bigtwo")] + tags, comments=comments, hands=hands),
    st.lists(st.builds(lambda n, v: Tag(name=n.capitalize(), value=v), _words, _comment.filter(lambda s: "\n" not in s)), max_size=3),
    st.lists(_comment, max_size=1),
    st.lists(st.builds(lambda n, evs: Hand(args=[NumArg(value=n)], events=evs), st.integers(1, 9), st.lists(_event(2), max_size=4)), min_size=1, max_size=2),
).filter(lambda r: all(_all_readable(h.events) for h in r.hands))


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(_record)
def test_any_record_model_round_trips_through_text(record):
    text = write_record(record)
    again = parse(text)
    assert same_content(again, record), text
    assert write_record(again) == text


# -- Yichang 血流成河: play goes on after wins; mutations are still caught at their line -------------
YICHANG = games.engine("yichang")


def yichang_lines(seed: int) -> list[str]:
    return write_record(selfplay_record(YICHANG, seed, hands=1)).split("\n")


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_yichang_selfplay_validates_and_round_trips(seed):
    text = "\n".join(yichang_lines(seed))
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert sum(report.totals.values()) == 0
    assert write_record(parse(text)) == text


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_yichang_changed_score_is_rejected_at_its_line(seed, rnd):
    lines = yichang_lines(seed)
    i = next(k for k, line in enumerate(lines) if line.startswith("score"))
    parts = lines[i].split()
    k = rnd.randrange(4)
    value = int(parts[2 + 2 * k]) + rnd.choice([-3, -1, 1, 2, 10])
    parts[2 + 2 * k] = f"{value:+d}" if value else "0"
    lines[i] = " ".join(parts)
    assert ("S401", i + 1) in codes_at("\n".join(lines))


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_yichang_discard_out_of_turn_is_rejected_at_its_line(seed, rnd):
    lines = yichang_lines(seed)
    i = rnd.choice([k for k, line in enumerate(lines) if ": discard " in line])
    lines[i] = rnd.choice([s for s in "ABCD" if s != lines[i][0]]) + lines[i][1:]
    assert ("L302", i + 1) in codes_at("\n".join(lines))


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_yichang_dropped_win_is_rejected_at_the_next_line(seed, rnd):
    # after a win the turn goes to the winner's 下家 (after several on one discard, the 下家 of
    # the one farthest from the discarder); without the last win the next line is out of turn
    lines = yichang_lines(seed)
    wins = [k for k, line in enumerate(lines)
            if ": win " in line and lines[k + 1][:2] in ("A:", "B:", "C:", "D:") and ": win " not in lines[k + 1]]
    if not wins:
        return
    i = rnd.choice(wins)
    robbed = " win rob " in lines[i]
    del lines[i]
    codes = codes_at("\n".join(lines))
    if robbed:
        # a robbed kong's turn passes to the robber's 下家; when that is the konger, his next
        # draw reads as the kong's replacement draw and the play stays legal without the win:
        # then only the score line can show that a win is missing
        score = next(k for k, line in enumerate(lines) if line.startswith("score"))
        assert codes & {("L302", i + 1), ("L301", i + 1), ("S401", score + 1)}
    else:
        assert codes & {("L302", i + 1), ("L301", i + 1)}


# -- wuhan (紅中頼子槓) and its Jingzhou variant: selfplay validates, mutations are caught --------
WUHAN_CASES = [({}, None), ({"variant": "jingzhou"}, 3), ({"variant": "pizi", "kaikou": "each"}, None),
               ({"variant": "hongzhong_facai", "big_base": "yise15", "cash": "10"}, None)]


def wuhan_text(case: int, seed: int) -> str:
    options, seats = WUHAN_CASES[case]
    return write_record(selfplay_record(games.engine("wuhan"), seed, hands=2, options=options, seats=seats))


@SETTINGS
@given(st.integers(0, len(WUHAN_CASES) - 1), st.integers(0, 2**32 - 1))
def test_wuhan_selfplay_records_validate(case, seed):
    report = validate(parse(wuhan_text(case, seed)))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert all(h.computed == h.written for h in report.hands)
    assert sum(report.totals.values()) == 0


@SETTINGS
@given(st.integers(0, len(WUHAN_CASES) - 1), st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_wuhan_dropped_discard_is_rejected_at_its_line(case, seed, rnd):
    lines = wuhan_text(case, seed).split("\n")
    # a discard followed by the next player's draw: dropping it leaves the draw out of turn
    candidates = [i for i, l in enumerate(lines[:-1]) if ": discard " in l and ": draw " in lines[i + 1]
                  and lines[i + 1][0] != l[0]]
    if not candidates:
        return
    i = rnd.choice(candidates)
    del lines[i]
    assert ("L302", i + 1) in codes_at("\n".join(lines))


# -- every registered game: its selfplay records validate and survive text and JSON ----------
@pytest.mark.parametrize("game", games.game_ids())
@settings(deadline=None, max_examples=3, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_game_selfplay_validates_and_round_trips(game, seed):
    text = write_record(selfplay_record(games.engine(game), seed, hands=1))
    record = parse(text)
    assert write_record(record) == text
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    from_json = Record.model_validate(json.loads(record.model_dump_json()))
    assert same_content(from_json, record)
