"""What a record writes that no game allows, or that paifu used to misread: located errors.

Issue 29 (Robustness, third pass), "Wrong, and accepted", the score-line, hand-line and
message items: each test here failed before its fix, and says where the message points
(``file:line:col: CODE``). The hand-worked records of each game's zero-sum settlement are
in tests/records/<game>/zero-sum.paifu; this file checks the engines' part of it (what a
hand's settlement adds up to, read from each game's rule text) and the rest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paifu.cli import main
from paifu.notation import parse, read_path
from paifu.notation.reader import parse_chunk
from paifu.replay import games
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import SCORE_VERBS, replay


def validate_text(tmp_path, capsys, text: str, name: str = "r.paifu") -> list[str]:
    """``paifu validate`` on a file holding ``text``: its diagnostics lines, path and all."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    main(["validate", str(path)])
    out = capsys.readouterr().out
    return [line.replace(str(path), name) for line in out.splitlines() if line.startswith(name) or line.startswith(str(path))]


def codes_at(lines: list[str]) -> list[str]:
    """'r.paifu:5:1: S405 ...' -> '5:1 S405', notes left out."""
    out = []
    for line in lines:
        place, _, rest = line.partition(": ")
        code = rest.split()[0]
        if not code.startswith("N"):
            out.append(f"{place.split(':', 1)[1]} {code}")
    return out


# -- a written score line must add up to what the game's settlement adds up to --------------
# Which games' hands are zero-sum, from each rule text's own words (the engines cite them in
# ``zero_sum_rule``): the seats pay each other in Big Two, the five mahjong games and the two
# paper-card games; in Piquet and 99 each player scores points of his own.
ZERO_SUM = {
    "bigtwo": True,  # 004 §Big2 □勝利条件と得点計算: 敗者となった残り3人は、残った手札ぶんの失点を勝者に支払います
    "kawuxing": True,  # 000 §New Three-Player Mahjong Pay out scheme: ... pays the amount to the winner
    "paomazai": True,  # 004 §跑馬仔 ■得点一覧: 各自からその場で200点貰う / 放銃した人から300点貰う
    "wuhan": True,  # 000 §紅中頼子槓 点数計算: 上がった人以外の3人が,それぞれ上がった人に点を払います
    "yichang": True,  # 003 §上がりの点数授受: 上がり牌を捨てた人が,上がった人に手の点数を払います
    "sanma": True,  # 001 基本ルール 14.1: 供託の点数は、栄和した競技者の一人目が受け取る (the pot besides)
    "paohuzi": True,  # 002 §支払い: 上がれなかったプレイヤーはそれぞれ上がったプレイヤーに得点分の点数を支払います
    "jiuzhi": True,  # 004 §九支十仔 ◆上がり: ツモと胡はそれぞれから、ロンはその人から点数をもらう
    "piquet": False,  # 000 §ピケ カード勝負の点: 先手で手札を出したら,1 点を得 (each player scores)
    "ninetynine": False,  # 000 §99 得点計算: 成功した人が 3 人なら 3 人とも 10 点ずつ (each player scores)
}


def test_each_game_says_whether_its_hands_are_zero_sum_as_its_rule_text_does():
    assert set(ZERO_SUM) == set(games.game_ids())
    for game, zero_sum in ZERO_SUM.items():
        engine = games.engine(game)
        assert engine.zero_sum is zero_sum, game
        assert bool(engine.zero_sum_rule) is zero_sum, f"{game}: a zero-sum game cites its rule text"


RECORDS = Path(__file__).parent / "records"


def _settled_hands(game: str, seeds: range):
    """The engine of ``game``, and (state, settlement) at each score line of its selfplay
    records (``seeds``) and of its record tests, where every figure is known."""
    engine = games.engine(game)
    found = []

    def at_score(step):
        if getattr(step.event, "verb", None) in SCORE_VERBS and step.settlement is not None and not step.settlement.unknown:
            found.append((step.state, step.settlement))

    records = [selfplay_record(engine, seed) for seed in seeds]
    records += [r.record for path in sorted((RECORDS / game).glob("*.paifu")) for r in read_path(path) if r.ok]
    for record in records:
        replay(record, on_step=at_score)
    return engine, found


@pytest.mark.parametrize("game", [g for g, z in ZERO_SUM.items() if z])
def test_a_zero_sum_games_hands_add_up_to_what_its_engine_says(game):
    """The engine's ``settlement_sum`` is what every settled hand adds up to: 0, or (sanma)
    what the pot gives less what it takes, the riichi sticks and the pot's 供託."""
    engine, hands = _settled_hands(game, range(6))
    assert len(hands) > 10
    for state, settlement in hands:
        assert sum(settlement.deltas.values()) == engine.settlement_sum(state, settlement)


def test_sanmas_sum_is_the_pot_and_the_sticks_not_zero():
    """Rule 14.1 (供託の点数は、栄和した競技者の一人目が受け取る): in the hands where riichi
    sticks go into the pot, or the pot to a winner, the scores do not add up to 0."""
    engine, hands = _settled_hands("sanma", range(0))
    sums = {engine.settlement_sum(state, settlement) for state, settlement in hands}
    assert 0 in sums and len(sums) > 1


@pytest.mark.parametrize("game", ["piquet", "ninetynine"])
def test_games_whose_players_score_points_fix_no_sum(game):
    engine, hands = _settled_hands(game, range(3))
    assert any(sum(s.deltas.values()) != 0 for _, s in hands)  # a zero-sum check would be wrong here
    assert all(engine.settlement_sum(state, s) is None for state, s in hands)


BIGTWO_DRAGON = '[Game "bigtwo"]\nhand 1 dealer=D\ndeal A: *************\nA: dragon\n'


def test_the_issues_mutant_score_line_is_located_at_the_line(tmp_path, capsys):
    """The issue's example: an unseen dragon took every figure on trust (N501 only), so a
    line that pays C was accepted. 一條龍: 各自の手札×3倍 is paid by each other seat."""
    lines = validate_text(tmp_path, capsys, BIGTWO_DRAGON + "score A +117 B -39 C +39 D -39\n")
    assert codes_at(lines) == ["5:1 S405"]
    assert any("5:1: S405 the score line's figures add up to +78, but this hand's scores add up to 0" in line for line in lines)
    assert codes_at(validate_text(tmp_path, capsys, BIGTWO_DRAGON + "score A +117 B -39 C -39 D -39\n")) == []


def test_a_total_that_does_not_follow_from_the_written_score_is_located_at_its_figure(tmp_path, capsys):
    """A running total hidden cards leave unchecked is its total before plus the written
    score: B's +117 after 0 and a score of -39 is no total (S406 at B's figure); the line
    adds up to 0 (117 + 117 - 117 - 117) and each other seat's follows."""
    text = BIGTWO_DRAGON + "score A +117 B -39 C -39 D -39\ntotal A +117 B +117 C -117 D -117\n"
    assert codes_at(validate_text(tmp_path, capsys, text)) == ["6:16 S406", "6:23 S406", "6:30 S406"]


# -- the hand line and the score lines: what would be silently ignored ----------------------
CLUB = (Path(__file__).parent.parent / "examples/bigtwo-club-night.paifu").read_text(encoding="utf-8")


def test_junk_on_a_hand_line_is_r206_at_each_item(tmp_path, capsys):
    text = '[Game "bigtwo"]\n\nhand 1 dealer=A ==x a=b=c =\ndeal A: *************\n'
    lines = validate_text(tmp_path, capsys, text)
    assert codes_at(lines) == ["3:17 R206", "3:21 R206", "3:27 R206"]
    assert "'==x' on a hand line is neither the hand's number nor key=value" in lines[0]
    assert "'a=b=c' is not key=value" in lines[1]
    text = '[Game "bigtwo"]\n\nhand 1 2 dealer=A dealer=B\ndeal A: *************\n'
    assert codes_at(validate_text(tmp_path, capsys, text)) == ["3:8 R206", "3:19 R206"]


def test_a_hand_lines_own_attributes_are_still_read():
    from paifu.replay.validate import hand_line_problems

    record = parse('[Game "sanma"]\nhand 1 dealer=B honba=2 pot=1000 round=S kyoku=2\n')
    assert hand_line_problems(record.hands[0]) == []


def _club_first_hand() -> str:
    """The club-night example up to its second hand: its first hand, score line and all."""
    return CLUB.partition("\nhand 2")[0]


def test_a_second_score_line_in_a_hand_is_r213(tmp_path, capsys):
    text = _club_first_hand()
    score = next(line for line in text.splitlines() if line.startswith("score "))
    number = text.splitlines().index(score) + 1
    lines = validate_text(tmp_path, capsys, text.replace(score, score + "\n" + score.split(" {")[0]) + "\n")
    assert codes_at(lines) == [f"{number + 1}:1 R213"]
    assert f"a second 'score' line in this hand: the hand's score is written on line {number}" in lines[0]


def test_a_second_total_line_in_a_hand_is_r213(tmp_path, capsys):
    text = BIGTWO_DRAGON + "score A +117 B -39 C -39 D -39\ntotal A +117 B -39 C -39 D -39\ntotal A 0 B 0 C 0 D 0\n"
    assert codes_at(validate_text(tmp_path, capsys, text)) == ["7:1 R213"]


# -- comments: between tags, and one left open ----------------------------------------------
def _both_readings(text: str):
    fast, lark = parse_chunk(text), parse_chunk(text, lark=True)
    assert [d.format() for d in fast.diagnostics] == [d.format() for d in lark.diagnostics]
    assert fast.record == lark.record
    return fast


@pytest.mark.parametrize("between", [" {a note} ", "\n{a note}\n", "\n{a\nnote}\n", "\n\n{a note}\n\n"])
def test_a_comment_between_two_tags_is_the_records_own(between, tmp_path, capsys):
    """docs/notation.md §Comments: before the first hand a comment belongs to the record, so
    one between two tags too (it made the next tag P101, or cut the record in two)."""
    text = f'[Game "bigtwo"]{between}[Players "A: Ann; B: Bo; C: Cy; D: Di"]\n\n' + BIGTWO_DRAGON.split("\n", 1)[1] + \
        "score A +117 B -39 C -39 D -39\n"
    read = _both_readings(text)
    assert [t.name for t in read.record.tags] == ["Game", "Players"]
    assert read.record.comments == [between.strip()[1:-1]]
    assert codes_at(validate_text(tmp_path, capsys, text)) == []


def test_a_record_whose_body_is_a_comment_does_not_take_in_the_next(tmp_path, capsys):
    text = '[Game "bigtwo"]\n{no hand}\n[Game "bigtwo"]\n' + BIGTWO_DRAGON.split("\n", 1)[1] + "score A +117 B -39 C -39 D -39\n"
    assert codes_at(validate_text(tmp_path, capsys, text)) == ["1:1 R207"]


UNCLOSED = ('[Game "bigtwo"]\n\nhand 1 dealer=D\ndeal A: *************\nA: dragon\n'
            "score A +117 B -39 C -39 D -39 {a dragon, dealt\n\n"
            "hand 2 dealer=A\ndeal B: *************\nB: dragon {the second}\nscore A -39 B +117 C -39 D -39\n")


def test_an_unclosed_comment_that_swallows_a_hand_line_is_located_at_its_brace(tmp_path, capsys):
    """The '{' of line 6 ran to the '}' of line 10: hand 2 was read as a comment and the
    error was an L308 at line 11, far from the cause."""
    lines = validate_text(tmp_path, capsys, UNCLOSED)
    assert codes_at(lines) == ["6:32 P114"]
    assert "not closed before line 8, which reads as a hand line: 'hand 2 dealer=A'" in lines[0]
    assert "runs on to line 10" in lines[0]
    _both_readings(UNCLOSED)


def test_an_unclosed_comment_that_swallows_the_next_record_is_located_at_its_brace(tmp_path, capsys):
    text = UNCLOSED.replace("hand 2 dealer=A", '[Game "bigtwo"]\n\nhand 1 dealer=A')
    lines = validate_text(tmp_path, capsys, text)
    assert codes_at(lines) == ["6:32 P114"]
    assert "which reads as a tag line (the next record's): '[Game \"bigtwo\"]'" in lines[0]


def test_a_comment_of_several_lines_that_only_talks_of_hands_is_no_error():
    text = ('[Game "bigtwo"]\n\nhand 1 dealer=D\ndeal A: *************\nA: dragon\n'
            "score A +117 B -39 C -39 D -39 {a dragon:\nhand was dealt so, [rare]\nhand 2 went on}\n")
    assert _both_readings(text).diagnostics == []


# -- messages that said something else -----------------------------------------------------
KAWUXING = '[Game "kawuxing"]\n[Option "suits=ps"]\nhand 1 dealer=A\ndeal A: 12346p 789s 22s 555z 7z\ndeal B: *************\ndeal C: *************\n'


def test_a_forgotten_verb_says_so(tmp_path, capsys):
    """'A: 7z' said "kawuxing has no verb 'cards'": the verb was forgotten, not unknown."""
    lines = validate_text(tmp_path, capsys, KAWUXING + "A: 7z\n")
    assert codes_at(lines) == ["7:4 L306"]
    assert "'A:' is followed by no verb: a kawuxing event names what the seat does, as in 'A: discard 7z'" in lines[0]
    assert "'cards'" not in lines[0]
    lines = validate_text(tmp_path, capsys, '[Game "jiuzhi"]\nhand 1 dealer=A\nA: YK\n')
    assert codes_at(lines) == ["3:4 L306"] and "as in 'A: discard YK'" in lines[0] and "(none)" not in lines[0]


def test_win_tsumo_without_a_tile_shows_the_line_with_its_tile(tmp_path, capsys):
    """'win tsumo' hinted "e.g. 'win 5p'", which drops how the hand is won."""
    lines = validate_text(tmp_path, capsys, KAWUXING + "A: win tsumo\n")
    assert codes_at(lines) == ["7:8 L306"]
    assert "'win tsumo' needs the winning tile after it, e.g. 'win tsumo 5p'" in lines[0]
    lines = validate_text(tmp_path, capsys, '[Game "jiuzhi"]\nhand 1 dealer=A\nA: win zimo\n')
    assert codes_at(lines) == ["3:8 L306"] and "e.g. 'A: win zimo YK'" in lines[0]
