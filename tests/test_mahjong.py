"""The mahjong family core: walls, seats, the selfplay policy, events and views."""

from __future__ import annotations

import random

from paifu.notation import parse
from paifu.notation.writer import write_records
from paifu.replay.mahjong import tiles as T
from paifu.replay.games import engine
from paifu.replay.mahjong.core import Move, Seen, Wall, best_discard, choose_toward_win, wind_of
from paifu.replay.selfplay import selfplay_record


def test_wall_draws_from_the_head_and_replaces_from_the_tail():
    wall = Wall(5, ["1m", "2m", "3m", "4m", "5m"])
    assert wall.take("head") == "1m"
    assert wall.take("tail") == "5m"
    assert wall.live == 3
    assert wall.peek("head", 5) == ["2m", "3m", "4m"]
    unwritten = Wall(3)
    assert unwritten.take("head") == "*" and unwritten.live == 2


def test_seat_winds_count_from_the_dealer():
    seats = ["A", "B", "C", "D"]
    assert [wind_of(seats, "C", s) for s in seats] == [2, 3, 0, 1]


def _seen(hand: str, melds: int = 0) -> Seen:
    counts = T.counts_of(hand)
    return Seen("A", counts, melds, list(counts), 50, False, list(range(34)), {})


def test_policy_takes_every_win():
    legal = [Move("A", "discard", "1m"), Move("A", "win", "2m", "tsumo")]
    assert choose_toward_win(_seen("123m456p789s1122z2m"), legal, random.Random(0), lambda s, c, m: T.shanten(c, m)).verb == "win"


def test_policy_discards_toward_ready():
    seen = _seen("123m456p789s11z2z7z")
    discards = [Move("A", "discard", t) for t in ("1m", "4p", "1z", "2z", "7z")]
    choice = best_discard(seen, discards, lambda s, c, m: T.shanten(c, m))
    assert choice.tile in ("2z", "7z")


def test_events_read_back_as_the_same_actions():
    for game in ("paomazai", "kawuxing", "yichang"):
        eng = engine(game)
        record = parse(write_records([selfplay_record(eng, 3, hands=1)]))
        assert record.hands[0].events


def test_seat_view_shows_only_the_seat_own_hand():
    eng = engine("paomazai")
    record = selfplay_record(eng, 5, hands=1)
    hand = record.hands[0]
    from paifu.replay.engine import HandHeader
    match = eng.start_match({o.name: o.default for o in eng.options} | {}, ["A", "B", "C", "D"])
    setup = [e for e in hand.events if e.seat is None and e.verb in eng.setup_verbs]
    state = eng.start_hand(match, HandHeader(1, "A", {}), setup)
    seen = eng.seat_view(state, "B")
    assert seen.counts == state.concealed_counts("B")
    assert sum(seen.visible) == sum(seen.counts)  # nothing else is visible yet
    table = eng.view(state, "B")
    a = next(s for s in table.seats if s.seat == "A")
    assert a.zones[0].cards == [] and a.zones[0].hidden == 14


def test_bad_input_is_located_never_a_traceback():
    text = """[Game "paomazai"]
[Expect "x"]

hand 1 dealer=A
deal A: 123m
deal B: hello
A: discard
A: win sideways 5p
"""
    from paifu.replay.validate import validate
    report = validate(parse(text))
    assert not report.valid
    assert all(d.code != "X901" for d in report.diagnostics)
    for bad in ("A: discard", "A: win sideways 5p", "A: kong", "A: pon 1m 2m", "A: draw hello", "horses 1m", "A: disclose 1m", "Z: discard 1m"):
        t = text.replace("deal A: 123m\ndeal B: hello\nA: discard\nA: win sideways 5p\n", "deal A: 123m456p789s11122z\n" + bad + "\n")
        report = validate(parse(t))
        assert not report.valid and all(d.code != "X901" for d in report.diagnostics), (bad, [d.format() for d in report.diagnostics])


from hypothesis import assume, given, settings, strategies as st  # noqa: E402

from paifu.replay.validate import validate  # noqa: E402


def _lines(game: str, seed: int) -> list[str]:
    return write_records([selfplay_record(engine(game), seed, hands=1)]).split("\n")


def _errors(lines: list[str]) -> set[tuple[str, int]]:
    report = validate(parse("\n".join(lines)))
    return {(d.code, d.line) for d in report.diagnostics if d.severity == "error"}


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["paomazai", "kawuxing", "yichang"]), st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_discard_out_of_turn_is_rejected_at_its_line(game, seed, rnd):
    lines = _lines(game, seed)
    discards = [i for i, l in enumerate(lines) if ": discard " in l]
    assume(discards)
    i = rnd.choice(discards)
    seats = "ABC" if game == "kawuxing" else "ABCD"
    lines[i] = rnd.choice([s for s in seats if s != lines[i][0]]) + lines[i][1:]
    assert ("L302", i + 1) in _errors(lines)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["paomazai", "kawuxing", "yichang"]), st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_dropped_discard_is_rejected_at_the_next_line(game, seed, rnd):
    lines = _lines(game, seed)
    discards = [i for i, l in enumerate(lines) if ": discard " in l and ": draw " in lines[i + 1]]
    if not discards:
        return
    i = rnd.choice(discards)
    del lines[i]
    assert ("L302", i + 1) in _errors(lines)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["paomazai", "kawuxing", "yichang"]), st.integers(0, 10_000))
def test_selfplay_text_round_trips(game, seed):
    text = "\n".join(_lines(game, seed))
    assert write_records([parse(text)]) == text


# -- chi and a dead wall: core features no current game turns on ----------------------------
from paifu.replay.engine import HandHeader, Rules, Settlement, Violation  # noqa: E402
from paifu.replay.mahjong.core import MahjongEngine  # noqa: E402

import pytest  # noqa: E402


class _ChiGame(MahjongEngine):
    id = "toy"
    may_chi = True

    def dead_wall(self, rules):
        return 8, False

    def settle_hand(self, state):
        return Settlement({s: 0 for s in state.seats})


def _play(text: str):
    record = parse('[Game "paomazai"]\n' + text)
    hand = record.hands[0]
    eng = _ChiGame()
    match = eng.start_match(Rules(), ["A", "B", "C", "D"])
    setup = [e for e in hand.events if e.seat is None and e.verb in eng.setup_verbs]
    state = eng.start_hand(match, HandHeader(1, "A", {}), setup)
    for ev in hand.events[len(setup):]:
        eng.apply(state, eng.read_action(state, ev))
    return eng, state


DEAL = """hand 1 dealer=A
deal A: 2348m2468p2468s37z
deal B: 12m456p789s11122z
deal C: *************
deal D: *************
"""


def test_chi_by_the_next_player_takes_the_discard():
    eng, state = _play(DEAL + "A: discard 3m\nB: chi 123m\nB: discard 2z\n")
    assert [m.codes() for m in state.melds["B"]] == [["1m", "2m", "3m"]]
    assert state.phase == "claim" and state.discard == "2z"


@pytest.mark.parametrize("line,code", [("C: chi 345m", "L301"), ("B: chi 234m", "L303"), ("B: chi 12m3p", "L301")])
def test_bad_chi_is_rejected(line, code):
    with pytest.raises(Violation) as err:
        _play(DEAL + "A: discard 3m\n" + line + "\n")
    assert err.value.code == code


def test_dead_wall_keeps_replacements_apart():
    eng, state = _play(DEAL)
    assert state.wall.live == 136 - 53 - 8
    _, state = _play(DEAL.replace("deal A: 2348m2468p2468s37z", "deal A: 9999m2468p2468s37z") + "A: kong 9m\nA: draw *\n")
    assert state.wall.live == 136 - 53 - 8 and state.wall.dead == 7


def test_chi_is_listed_for_the_next_player_and_written_back():
    eng, state = _play(DEAL + "A: discard 3m\n")
    legal = eng.legal_actions(state)
    chis = [m for m in legal if m.verb == "chi"]
    assert [m.tiles for m in chis] == [("1m", "2m", "3m")] and all(m.seat == "B" for m in chis)
    event = eng.event_for(state, chis[0])
    assert event.verb == "chi" and event.cards() == ["1m", "2m", "3m"]
    seen = eng.seat_view(state, "B")
    choice = choose_toward_win(seen, legal, random.Random(0), lambda s, c, m: T.shanten(c, m))
    assert choice.verb == "win"  # B is ready on 3m: the win comes before the chi


def test_selfplay_with_chi_plays_out():
    eng = _ChiGame()
    chis = 0
    for seed in range(6):
        record = selfplay_record(eng, seed, hands=1)
        chis += sum(1 for e in record.hands[0].events if e.verb == "chi")
    assert chis > 0


def test_ready_hand_values_the_last_copy_of_an_opponent_pon():
    # discard 8s waits on 5s (one left), discard 4s on 7s (two left); three 5s are seen
    counts = T.counts_of("123m456m789m11p468s")
    visible = list(counts)
    visible[T.tile_index("7s")] += 2
    visible[T.tile_index("5s")] += 3
    discards = [Move("A", "discard", t) for t in ("4s", "8s")]
    shanten = lambda s, c, m: T.shanten(c, m)  # noqa: E731
    discarded = Seen("A", counts, 0, visible, 50, False, list(range(34)), {})
    assert best_discard(discarded, discards, shanten).tile == "4s"
    # the three 5s are an opponent's pon: its ponner will add the last one as a kong, to be robbed
    ponned = Seen("A", counts, 0, visible, 50, False, list(range(34)), {}, (T.tile_index("5s"),))
    assert best_discard(ponned, discards, shanten).tile == "8s"


def test_policy_adds_the_fourth_tile_to_its_pon():
    # a pon of 9p and the fourth just drawn: the added kong keeps the meld count
    counts = T.counts_of("123m456p78s11z9p")
    seen = Seen("A", counts, 1, list(counts), 40, False, list(range(34)), {})
    legal = [Move("A", "discard", t) for t in ("1m", "4p", "7s", "1z", "9p")] + [Move("A", "kong", "9p")]
    assert choose_toward_win(seen, legal, random.Random(0), lambda s, c, m: T.shanten(c, m)).verb == "kong"


# -- the missed-win mechanism: one mechanism in the core, the game's rule as parameters
# (replay/mahjong/core.py MissedWinRule); the records under tests/records/kawuxing/missed*.paifu
# and tests/records/paomazai/furiten.paifu check each game's rule.
from paifu.notation import parse as _parse  # noqa: E402
from paifu.replay.mahjong.core import MissedWinRule  # noqa: E402
from paifu.replay.mahjong.paomazai import Paomazai  # noqa: E402

# D lets a win on 5z go by (a written pass), draws and discards on his own turn, then wins
# on 7z: the miss restricts nothing by default (paomazai's フリテンも殆ど無い), ends at his
# own draw under furiten=temporary, and under a miss lasting the hand (sanma's riichi
# furiten) still bars the win.
_MISSED_THEN_DRAW = """hand 1 dealer=A
deal A: **************
deal B: *************
deal C: *************
deal D: 111s333s999p55z77z
A: discard 5z
D: pass
B: draw *
B: discard 1s
C: draw *
C: discard 2s
D: draw 1p
D: discard 1p
A: draw *
A: discard 7z
D: win ron 7z
"""


class _LastingMiss(Paomazai):
    def missed_rule(self, rules):
        return MissedWinRule("a miss lasting the hand", ends_at_own_draw=True)

    def missed_lasts(self, state, seat):
        return True


def _play_missed(engine_obj, options: dict[str, str]):
    """Play the hand above on ``engine_obj``: the final state and the last event's refusal."""
    record = _parse('[Game "paomazai"]\n\n' + _MISSED_THEN_DRAW)
    rules = Rules({o.name: o.default for o in engine_obj.options})
    rules.update(options)
    match = engine_obj.start_match(rules, ["A", "B", "C", "D"])
    events = record.hands[0].events
    setup = [e for e in events if e.verb == "deal"]
    state = engine_obj.start_hand(match, HandHeader(1, "A", {}), setup)
    refused = None
    for event in events[len(setup):]:
        try:
            engine_obj.apply(state, engine_obj.read_action(state, event))
        except Violation as v:
            refused = v
    return state, refused


def test_missed_win_without_a_rule_restricts_nothing():
    state, refused = _play_missed(Paomazai(), {})
    assert refused is None and state.wins and state.missed == {}


def test_missed_win_ends_at_own_draw():
    state, refused = _play_missed(Paomazai(), {"furiten": "temporary"})
    assert refused is None and state.wins


def test_missed_win_lasting_the_hand_survives_the_draw():
    state, refused = _play_missed(_LastingMiss(), {})
    assert refused is not None and refused.code == "L301" and "for the rest of the hand" in refused.message
    assert state.missed_for_hand == {"D"} and not state.wins


# -- red fives in claims and kongs: the game's tile_identity (replay/mahjong/core.py) ------------
# A game says what a red tile is equal to; without it tiles compare by their exact codes, as
# before. Sanma makes 0p/0s their fives, and under its 赤五萬 option the red 5m a North
# (「三人麻雀」のルール ver. 1.3 §選択ルール「赤五萬」ver 1.2 4: 赤五萬は、手牌にあるときは北として扱われる).
class _RedGame(_ChiGame):
    may_chi = False
    identity: dict = {}

    def tile_set(self, rules):
        return T.tile_set("136", reds=("0m", "0p", "0s"))

    def tile_identity(self, rules):
        return self.identity


class _FivesGame(_RedGame):
    identity = {"0p": "5p", "0s": "5s", "0m": "5m"}


class _NorthGame(_RedGame):
    identity = {"0p": "5p", "0s": "5s", "0m": "4z"}


def _play_with(eng, text: str):
    record = parse('[Game "paomazai"]\n' + text)
    hand = record.hands[0]
    match = eng.start_match(Rules(), ["A", "B", "C", "D"])
    setup = [e for e in hand.events if e.seat is None and e.verb in eng.setup_verbs]
    state = eng.start_hand(match, HandHeader(1, "A", {}), setup)
    for ev in hand.events[len(setup):]:
        eng.apply(state, eng.read_action(state, ev))
    return eng, state


RED_DEAL = """hand 1 dealer=A
deal A: 1234m5p678p123s11z7z
deal B: 5p0p5s5s5s0s1m9m1p9p1s9s4z
deal C: *************
deal D: *************
"""


def test_a_red_five_is_its_five_for_a_pon_where_the_game_says_so():
    eng, state = _play_with(_FivesGame(), RED_DEAL + "A: discard 5p\n")
    legal = eng.legal_actions(state)
    assert Move("B", "pon", "5p") in legal  # B holds 5p and 0p
    eng.apply(state, Move("B", "pon", "5p"))
    assert state.hands["B"].known["0p"] == 0 and state.hands["B"].known["5p"] == 0
    assert state.melds["B"][0].tile == "5p"


def test_without_an_identity_tiles_compare_by_their_codes():
    eng, state = _play_with(_RedGame(), RED_DEAL + "A: discard 5p\n")
    assert not any(m.verb == "pon" for m in eng.legal_actions(state))  # one 5p only: unchanged behaviour
    with pytest.raises(Violation) as err:
        eng.apply(state, Move("B", "pon", "5p"))
    assert err.value.code == "L303"


def test_a_concealed_kong_with_a_red_five_is_offered_once():
    eng, state = _play_with(_FivesGame(), RED_DEAL + "A: discard 7z\nB: draw 1m\n")
    kongs = [m for m in eng.legal_actions(state) if m.verb == "kong"]
    assert kongs == [Move("B", "kong", "5s")]  # 555s + 0s: named by the plain five
    eng.apply(state, kongs[0])
    assert state.melds["B"][0].tile == "5s" and state.hands["B"].known["0s"] == 0
    _, plain = _play_with(_RedGame(), RED_DEAL + "A: discard 7z\nB: draw 1m\n")
    assert not any(m.verb == "kong" for m in _RedGame().legal_actions(plain))


def test_a_red_5m_that_is_a_north_pons_a_north_and_counts_as_one():
    eng, state = _play_with(_NorthGame(), RED_DEAL.replace("deal B: 5p0p5s5s5s0s1m9m1p9p1s9s4z", "deal B: 5p0p5s5s5s0s1m0m1p9p1s9s4z")
                            + "A: discard 7z\nB: draw 1z\nB: discard 1z\nC: draw *\nC: discard 4z\n")
    counts = state.concealed_counts("B")
    assert counts[T.tile_index("4z")] == 2 and counts[T.tile_index("5m")] == 0
    assert Move("B", "pon", "4z") in eng.legal_actions(state)
    eng.apply(state, Move("B", "pon", "4z"))
    assert state.melds["B"][0].tile == "4z" and state.hands["B"].known["0m"] == 0
    # a pon of the discarded red 5m itself is a pon of Norths: the meld is written 4z
    eng2, state2 = _play_with(_NorthGame(), RED_DEAL.replace("deal B: 5p0p5s5s5s0s1m9m1p9p1s9s4z", "deal B: 5p0p5s5s5s0s1m9m1p4z4z1s9s")
                              .replace("deal A: 1234m5p678p123s11z7z", "deal A: 1234m5p678p123s1m0m7z") + "A: discard 0m\n")
    assert Move("B", "pon", "0m") in eng2.legal_actions(state2)
    eng2.apply(state2, Move("B", "pon", "0m"))
    assert state2.melds["B"][0].tile == "4z"


@pytest.mark.parametrize("game", ["kawuxing", "paomazai", "sanma", "wuhan", "yichang"])
def test_engines_hold_counts_as_bytearrays_and_win_checks_read_them_as_lists(game):
    """The engines hold concealed counts as a bytearray (the tile core's fastest form); at
    every step of a played hand, each seat's win check on its counts plus any one tile
    answers the same for the bytearray and for the same counts as a list."""
    from paifu.replay.selfplay import _header

    eng = engine(game)
    rng = random.Random(11)
    rules = Rules({o.name: o.default for o in eng.options})
    match = eng.start_match(rules, [chr(ord("A") + i) for i in range(eng.default_seats(rules))])
    hand = eng.deal_hand(match, 1, rng)
    state = eng.start_hand(match, _header(hand), hand.events)
    checked = wins = 0
    while not eng.hand_over(state):
        for seat in state.seats:
            if not state.hand_known(seat):
                continue
            counts = state.concealed_counts(seat)
            assert type(counts) is bytearray
            for k in range(34):
                more = bytearray(counts)
                more[k] += 1
                won = eng.is_winning(state, seat, more)
                assert won == eng.is_winning(state, seat, list(more)), (seat, T.codes_of(more))
                checked += 1
                wins += won
        legal = eng.legal_actions(state)
        eng.apply(state, eng.choose(eng.seat_view(state, eng.to_act(state)), legal, rng))
    assert checked > 1000 and wins > 0  # this seed's hand has winning tiles for some seat
