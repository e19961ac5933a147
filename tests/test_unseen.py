"""Actions of hands the record has not shown (``Engine.candidate_actions``), for the scribe.

A scribe at the table sees some hands and not others. The engines list no legal action for
a seat whose hand is unseen; ``unseen_actions`` lists the actions whose cards could be among
its unseen ones (any card of the set not known to be elsewhere), in the shapes a seen hand is
offered. The expected lists below are counted by hand from each deal, as the rule texts say
what a play, a claim or a draw is.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paifu.notation import parse
from paifu.notation.model import OptionArg
from paifu.notation.writer import write_event
from paifu.notation.cards import spelling_for_game
from paifu.replay import games
from paifu.replay.engine import Engine, HandHeader, HandState, Rules, Violation


def state_of(game: str, body: str) -> tuple[Engine, HandState]:
    """The state after a record's hand 1 (its set-up lines, then its events)."""
    record = parse(f'[Game "{game}"]\n\n{body.strip()}\n')
    engine = games.engine(game)
    assert engine is not None
    rules = Rules({o.name: o.default for o in engine.options})
    seats = [chr(ord("A") + i) for i in range(engine.default_seats(rules))]
    match = engine.start_match(rules, seats)
    hand = record.hands[0]
    n = 0
    while n < len(hand.events) and hand.events[n].seat is None and hand.events[n].verb in engine.setup_verbs:
        n += 1
    dealer = hand.attr("dealer")
    header = HandHeader(1, dealer.value if dealer else None, {a.key: a.value for a in hand.args if isinstance(a, OptionArg)})
    state = engine.start_hand(match, header, hand.events[:n])
    for ev in hand.events[n:]:
        engine.apply(state, engine.read_action(state, ev))
    return engine, state


def texts(engine: Engine, state: HandState, actions: list) -> list[str]:
    spelling = spelling_for_game(engine.id)
    return [write_event(engine.event_for(state, a), spelling) for a in actions]


def offered(engine: Engine, state: HandState) -> tuple[list[str], list[str]]:
    """(the legal actions, the candidate actions after them), as the notation writes them."""
    legal = engine.legal_actions(state)
    every = engine.candidate_actions(state)
    assert every[: len(legal)] == legal  # the legal actions come first, unchanged
    return texts(engine, state, legal), texts(engine, state, every[len(legal):])


def each_applies(engine: Engine, state: HandState) -> None:
    """Every candidate is one the engine's apply accepts (a copy per action)."""
    import copy

    for action in engine.candidate_actions(state):
        trial = copy.deepcopy(state)
        engine.apply(trial, action)


# -- Big Two: a card game ------------------------------------------------------------------
# seed 004_4a517c4c696f89f5.txt, 「中華圏の大富豪BIG2(大老二・鋤大D)」 §概要, §1~3枚出し: 13 cards each; the ♣3 holder leads and the first play
# holds the ♣3; a play beats the last one with as many cards and a higher combination; a
# seat that cannot or will not play passes. A and C are seen, B and D are not: the 26 cards
# B or D could hold are 3S 4S 5S 6S 7D 7H 7S 8S 9S TS JS QD QH QS, the four K, A and 2.
BIGTWO_DEAL = """
hand 1
deal A: 3C 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C
deal C: 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH QC
"""
POOL = "3S 4S 5S 6S 7D 7H 7S 8S 9S TS JS QD QH QS KC KD KH KS AC AD AH AS 2C 2D 2H 2S".split()


def test_bigtwo_unseen_hand_answers_a_single_with_any_card_it_could_hold() -> None:
    # ♣3 is the lowest card (3 the lowest rank, ♣ the lowest suit): each of the 26 cards that
    # could be B's beats it, so 26 single plays and the pass.
    engine, state = state_of("bigtwo", BIGTWO_DEAL + "A: 3C\n")
    assert engine.to_act(state) == "B"
    legal, extra = offered(engine, state)
    assert legal == []  # the engine still lists nothing for an unseen hand
    assert sorted(extra) == sorted([f"B: {c}" for c in POOL] + ["B: pass"])
    assert sorted(engine.unseen_candidates(state, "B")) == sorted(POOL)
    assert not engine.unseen_candidates(state, "A")  # a seen hand has nothing unseen
    each_applies(engine, state)


def test_bigtwo_unseen_hand_answers_a_pair_with_the_pairs_it_could_hold() -> None:
    # a pair beats the 3-pair with a higher pair: among the 26 cards, 7D 7H 7S make 3 pairs,
    # QD QH QS 3, the four K 6, the four A 6, the four 2 6: 24 pairs, and the pass.
    engine, state = state_of("bigtwo", BIGTWO_DEAL + "A: 3C 3D\n")
    _, extra = offered(engine, state)
    assert len(extra) == 25 and "B: pass" in extra
    assert "B: 7D 7H" in extra and "B: 2H 2S" in extra and "B: QD QS" in extra
    assert all(len(t.split()) == 3 for t in extra if t != "B: pass")


def test_bigtwo_partly_seen_hand_spends_no_more_unseen_cards_than_it_holds() -> None:
    # B's twelve cards are seen and one is not (it is one of the 14 cards nobody is seen to
    # hold: QH QS and the four K, A, 2). Pairs over the 3-pair: 7D7H 7D7S 7H7S from its seen
    # cards, QD with QH or QS (one unseen card each): 5; two unseen cards are not possible.
    engine, state = state_of("bigtwo", """
hand 1
deal A: 3C 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C
deal B: 3S 4S 5S 6S 7D 7H 7S 8S 9S TS JS QD *
deal C: 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH QC
A: 3C 3D
""")
    _, extra = offered(engine, state)
    assert sorted(extra) == sorted(["B: 7D 7H", "B: 7D 7S", "B: 7H 7S", "B: QD QH", "B: QD QS", "B: pass"])


def test_bigtwo_unseen_club_three_lets_either_unseen_hand_open_with_it() -> None:
    # Nobody seen holds the ♣3: it is B's or D's, and the first play holds it (最初は必ず♣3).
    engine, state = state_of("bigtwo", """
hand 1
deal A: 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D
deal C: 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH QC
""")
    assert engine.to_act(state) is None
    _, extra = offered(engine, state)
    assert "B: 3C" in extra and "D: 3C" in extra
    assert all("3C" in t for t in extra) and not any("pass" in t for t in extra)
    each_applies(engine, state)


# -- Kawuxing: the mahjong core --------------------------------------------------------------
# seed 000_d19ded950c7752da.txt, New Three-Player Mahjong of Northwestern Hubei (卡五星) §Equipments,
# §Pung, §Kong: 84 tiles, dots and bamboos 1-9 and the dragons 5z 6z 7z, four of each (21 kinds); no
# chi; pon with two of the discard, a direct kong with three. A and C are seen, B is not,
# and the wall is not written: its tiles are unseen too.
KAWUXING_DEAL = """
hand 1 dealer=A
deal A: 1234567p9p123456s
deal C: 88p789s789s55z66z7z
"""


def test_kawuxing_unseen_hand_may_claim_and_draws_any_tile_left() -> None:
    # After A's 9p: C cannot claim it (no 9p), so B draws next. The tile drawn is unseen
    # (B: draw *), or any tile with a copy not seen elsewhere: every one of the 21 kinds (A
    # holds one of each of 1-7p 9p 1-6s, C at most two of a kind). B could hold two or three of
    # the three 9p left: pon, kong, or a win on it.
    engine, state = state_of("kawuxing", KAWUXING_DEAL + "A: discard 9p\n")
    legal, extra = offered(engine, state)
    assert legal == ["B: draw *"]
    kinds = [f"{n}p" for n in range(1, 10)] + [f"{n}s" for n in range(1, 10)] + ["5z", "6z", "7z"]
    assert sorted(t for t in extra if "draw" in t) == sorted(f"B: draw {k}" for k in kinds)
    assert sorted(t for t in extra if "draw" not in t) == sorted(["B: win ron 9p", "B: kong 9p", "B: pon 9p"])
    each_applies(engine, state)


def test_kawuxing_unseen_hand_discards_any_tile_it_could_hold() -> None:
    # B drew an unseen tile: it discards any of the 21 kinds (none is wholly accounted for);
    # no concealed kong (every kind has a copy seen elsewhere, so no four are free); a
    # self-drawn win is offered on any tile it could have drawn.
    engine, state = state_of("kawuxing", KAWUXING_DEAL + "A: discard 9p\nB: draw *\n")
    legal, extra = offered(engine, state)
    assert legal == []
    discards = [t for t in extra if "discard" in t]
    assert len(discards) == 21 and "B: discard 9p" in discards
    assert not any("kong" in t for t in extra)
    assert all(t.startswith("B: win tsumo ") for t in extra if t not in discards)
    each_applies(engine, state)


def test_kawuxing_fully_accounted_tile_is_not_offered() -> None:
    # C holds the four 7z: B can neither draw nor discard a 7z.
    engine, state = state_of("kawuxing", """
hand 1 dealer=A
deal A: 1234567p9p123456s
deal C: 88p789s789s5z7777z
A: discard 9p
""")
    _, extra = offered(engine, state)
    assert "B: draw 7z" not in extra and "B: draw 6z" in extra
    assert engine.unseen_candidates(state, "B")["7z"] == 0
    assert engine.unseen_candidates(state, "B")["9p"] == 3  # 4 copies, A's discard seen


def test_kawuxing_seen_hand_drawing_unseen_becomes_partly_unseen() -> None:
    # A (seen) draws an unseen tile: its hand is partly unseen; it may discard its own tiles
    # or the drawn one, which is any tile not accounted for.
    engine, state = state_of("kawuxing", KAWUXING_DEAL + "A: discard 9p\nB: draw *\nB: discard 1p\nC: draw *\nC: discard 8p\nA: draw *\n")
    legal, extra = offered(engine, state)
    assert legal == []
    assert "A: discard 1p" in extra and "A: discard 7z" in extra
    each_applies(engine, state)


def test_a_game_without_unseen_actions_offers_only_the_legal_ones() -> None:
    # the default hook offers nothing: candidate_actions is legal_actions (Paohuzi, which follows
    # a hand with an unseen hand blind, keeps the default)
    import random

    engine = games.engine("paohuzi")
    assert engine is not None and type(engine).unseen_actions is Engine.unseen_actions
    rules = Rules({o.name: o.default for o in engine.options})
    match = engine.start_match(rules, ["A", "B", "C"])
    hand = engine.deal_hand(match, 1, random.Random(3))
    dealer = hand.attr("dealer")
    state = engine.start_hand(match, HandHeader(1, dealer.value if dealer else None, {}), hand.events)
    assert engine.candidate_actions(state) == engine.legal_actions(state) != []


# -- Jiuzhi: a four-colour card game -----------------------------------------------------------
# seed 004_4a517c4c696f89f5.txt, 「四色牌の九支十仔」 §◆開始, §◆チーの規則: 112 cards, 4 colours x 7 pieces x 4 copies (28 kinds); the dealer takes 10,
# the others 9; a discard is of the colour held least; a drawn card is shown, and claimed by a
# pair (チー) or a win. Only A is seen here; the five set-aside cards are written, the stock is
# not.
JIUZHI_DEAL = """
hand 1 dealer=A
aside YK YK YK YK YA
deal A: YH RS RH GC GS GK WE WA WH WK
"""


def test_jiuzhi_unseen_seats_claim_or_draw_any_card_not_accounted_for() -> None:
    # A holds one yellow card (YH) and more of every other colour: it must discard YH. Then
    # nobody is known to claim it; B draws next from an unseen stock: any of the 27 kinds
    # with a copy left (the four YK are set aside); B may pair it (only the next seat pairs a
    # discard), and B, C or D may win on it (a hidden hand is taken on trust).
    engine, state = state_of("jiuzhi", JIUZHI_DEAL)
    legal, extra = offered(engine, state)
    assert legal == ["A: discard YH"]
    engine, state = state_of("jiuzhi", JIUZHI_DEAL + "A: discard YH\n")
    legal, extra = offered(engine, state)
    assert legal == []
    draws = [t for t in extra if "draw" in t]
    assert len(draws) == 27 and "B: draw YK" not in draws and "B: draw YH" in draws
    assert sorted(t for t in extra if "draw" not in t) == sorted(["B: chi YH", "B: win ron YH", "C: win ron YH", "D: win ron YH"])
    each_applies(engine, state)


def test_jiuzhi_unseen_seat_discards_any_card_it_could_hold() -> None:
    # B paired A's YH from its unseen hand and discards: any of the 27 kinds not wholly
    # accounted for (the least-held colour cannot be checked in a hand nobody saw).
    engine, state = state_of("jiuzhi", JIUZHI_DEAL + "A: discard YH\nB: chi YH\n")
    assert engine.to_act(state) == "B"
    legal, extra = offered(engine, state)
    assert legal == []
    assert len(extra) == 27 and all(t.startswith("B: discard ") for t in extra) and "B: discard YK" not in extra
    each_applies(engine, state)


def test_a_refused_candidate_is_not_offered() -> None:
    # a candidate the engine's apply refuses (Big Two: a pass on the opening lead) is dropped
    engine, state = state_of("bigtwo", """
hand 1
deal A: 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D
deal C: 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH QC
""")
    from paifu.replay.cards.bigtwo import Pass

    try:
        engine.apply(state, Pass("B"))
        raise AssertionError("a pass on the opening lead is refused")
    except Violation:
        pass
    assert Pass("B") not in engine.candidate_actions(state)


# -- 99: a trick-taking card game ----------------------------------------------------------------
# seed 000_d19ded950c7752da.txt, 「99」 §人数とカード, §宣言, §カード勝負: 36 cards (A..6 of four suits), 12 each;
# each player bids by laying 3 cards face down, then 9 tricks are played. A is seen, B and C
# are not (with one unseen hand it would be deduced: the 12 cards nobody else holds).
NINETYNINE_DEAL = """
hand 1 dealer=A
deal A: AS KS QS JS TS 9S 8S 7S 6S AD KD QD
"""


def test_ninetynine_unseen_bids_are_written_and_plays_are_offered() -> None:
    # B bids first (the dealer's left): its three cards could be any 3 of the 24 A does not
    # hold, 24·23·22/6 = 2024 bids, more than a seen hand's 12·11·10/6 = 220: none is listed,
    # the scribe writes the bid.
    engine, state = state_of("ninetynine", NINETYNINE_DEAL)
    assert engine.to_act(state) == "B"
    assert offered(engine, state) == ([], [])
    # after the bids (B: AH KH QH, C: AC KC QC, A: 6S 7S 8S) and the announcements, B leads:
    # the 18 cards neither A holds nor anyone bid could be B's (6H-JH, 6C-JC, 6D-JD)
    engine, state = state_of("ninetynine", NINETYNINE_DEAL + "B: bid AH KH QH\nC: bid AC KC QC\nA: bid 6S 7S 8S\n")
    while engine.to_act(state) is not None and getattr(state, "phase") == "announce":
        engine.apply(state, engine.legal_actions(state)[0])  # everyone passes
    assert engine.to_act(state) == "B"
    legal, extra = offered(engine, state)
    assert legal == []
    assert sorted(extra) == sorted(f"B: {r}{s}" for r in "6789TJ" for s in "HCD")
    each_applies(engine, state)


# -- Piquet: the play of an unseen hand ------------------------------------------------------------
# seed 000_d19ded950c7752da.txt, 「ピケ(piquet)」 §カード勝負: 32 cards (A..7 of four suits). The
# scribe sees A's cards and the talon's top card (9D, which A takes for his JD); B's hand and
# exchange are unseen.
PIQUET_HAND = """
hand 1 dealer=B
deal A: AS 8S 7S AH KH 7H AD KD JD AC KC 9C
deal B: ************
talon 9D *******
A: exchange JD
B: exchange *
A: point 3
B: not good
A: sequence none
A: sets 4 A
B: good
A: sets 3 K
A: lead AD
"""


def test_piquet_unseen_hand_follows_with_any_card_it_could_hold() -> None:
    # 13 cards are accounted for (A's twelve, with the JD discarded, and the 9D taken): B
    # could follow with any of the other 19 (KS-9S, QH-8H, QD TD 8D 7D, QC-7C); whether it
    # follows suit cannot be checked. Its exchange and declarations are written.
    engine, state = state_of("piquet", PIQUET_HAND)
    assert engine.to_act(state) == "B"
    legal, extra = offered(engine, state)
    assert legal == []
    could = "KS QS JS TS 9S QH JH TH 9H 8H QD TD 8D 7D QC JC TC 8C 7C".split()
    assert sorted(t for t in extra) == sorted(f"B: follow {c}" for c in could)
    each_applies(engine, state)


# -- Sanma: a game's own declarations ------------------------------------------------------------
# 「三人麻雀」のルール ver. 1.3 §基本ルール 22 (北は抜きドラ) and its riichi: an unseen hand on its
# turn may extract a North it could hold, or declare riichi with any discard it could make.
def test_sanma_unseen_hand_may_extract_a_north_or_declare_riichi() -> None:
    engine, state = state_of("sanma", """
hand 1 dealer=A
deal A: 19m123456789p123s
deal C: 456789s556677z1z
A: discard 1m
B: draw *
""")
    legal, extra = offered(engine, state)
    assert legal == []
    # no North is seen anywhere: B could hold one
    assert "B: nuki 4z" in extra
    discards = {t.split()[-1] for t in extra if " discard " in t}
    riichis = {t.split()[-1] for t in extra if " riichi " in t}
    assert riichis == discards and "1m" in discards  # three 1m are left after A's
    each_applies(engine, state)


# -- every game: candidates from random deals with unseen hands ------------------------------------
# (seat letters hidden, set-up lines left out: a wall or stock nobody saw)
HIDDEN = {"bigtwo": ({"B", "D"}, ()), "sanma": ({"B"}, ("wall",)), "kawuxing": ({"C"}, ("wall",)),
          "paomazai": ({"B", "D"}, ("wall",)), "wuhan": ({"A", "C"}, ("wall",)), "yichang": ({"B"}, ("wall",)),
          "jiuzhi": ({"B"}, ("stock",)), "ninetynine": ({"B"}, ()), "piquet": ({"B"}, ())}


@pytest.mark.parametrize("game", sorted(HIDDEN))
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.randoms(use_true_random=False))
def test_candidates_apply_and_never_break_the_engine(game: str, seed: int, picks) -> None:
    # whatever is chosen among the candidates, the engine applies it (no violation, no internal
    # error) and the next candidates are computed again, for 40 steps or to the hand's end
    import random

    from paifu.notation.model import CardsArg, SeatArg

    engine = games.engine(game)
    assert engine is not None
    rules = Rules({o.name: o.default for o in engine.options})
    match = engine.start_match(rules, [chr(ord("A") + i) for i in range(engine.default_seats(rules))])
    hand = engine.deal_hand(match, 1, random.Random(seed))
    unseen, left_out = HIDDEN[game]
    events = [ev for ev in hand.events if ev.verb not in left_out]
    for ev in events:
        if ev.verb == "deal" and isinstance(ev.args[0], SeatArg) and ev.args[0].seat in unseen:
            ev.args = [CardsArg(cards=["*"] * len(a.cards)) if isinstance(a, CardsArg) else a for a in ev.args]
    dealer = hand.attr("dealer")
    state = engine.start_hand(match, HandHeader(1, dealer.value if dealer else None,
                                                {a.key: a.value for a in hand.args if isinstance(a, OptionArg)}), events)
    for _ in range(40):
        if engine.hand_over(state):
            break
        actions = engine.candidate_actions(state)
        if not actions:
            break  # written by hand (docs/scribe.md lists what)
        engine.apply(state, picks.choice(actions))
