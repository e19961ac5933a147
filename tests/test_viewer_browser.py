"""The record page in a real browser: Playwright driving Debian's chromium, headless.

Needs the apt packages ``chromium`` and ``fonts-noto-cjk`` and the Python package
``playwright`` (the test extra); skipped, with the reason, when either is missing.
Screenshots are written under each test's temporary folder.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Iterator

import pytest

try:
    from tests.test_viewer import EXAMPLES, GOOD, ILLEGAL, STOPPED, UNRESUMED
except ImportError:  # tests/ itself on sys.path
    from test_viewer import EXAMPLES, GOOD, ILLEGAL, STOPPED, UNRESUMED  # type: ignore[no-redef]

LONG_WORD = "x" * 400
COMMENTED = GOOD.replace("{a club flush to start <script>alert(\"x\")</script>}",
                         "{a club flush\nsecond line [%csl 3C,JC] [%clk 0:01:02] " + LONG_WORD + "}")

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install 'playwright~=1.64')")
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium fonts-noto-cjk)", allow_module_level=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    from werkzeug.serving import make_server

    from paifu.viewer import create_app

    root = tmp_path_factory.mktemp("records")
    (root / "club.paifu").write_text(GOOD + "\n" + ILLEGAL, encoding="utf-8")
    (root / "commented.paifu").write_text(COMMENTED, encoding="utf-8")
    (root / "stopped.paifu").write_text(STOPPED, encoding="utf-8")
    (root / "unresumed.paifu").write_text(UNRESUMED, encoding="utf-8")
    for name in ("ninetynine-game.paifu", "piquet-partie.paifu", "jiuzhi-basics.paifu"):
        (root / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"), encoding="utf-8")
    (root / "games").mkdir()
    from paifu.notation import write_record
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    (root / "two-hands.paifu").write_text(write_record(selfplay_record(games.engine("bigtwo"), 1, 2)), encoding="utf-8")
    _selfplay_each_game(root / "games")
    app = create_app(root)
    app.config["PAGE_STEPS"] = 300  # ninetynine-game.paifu (352 steps) comes a hand at a time
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def _selfplay_each_game(folder: Path) -> None:
    from paifu.notation import write_record
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    for gid in games.GAME_MODULES:
        try:
            engine = games.engine(gid)
            if engine is None:
                continue
            record = selfplay_record(engine, 7, 1)
        except Exception:  # noqa: BLE001 - an engine still being written is not the viewer's test
            continue
        (folder / f"{gid}.paifu").write_text(write_record(record), encoding="utf-8")


@pytest.fixture()
def page(browser, site):
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    pg = context.new_page()
    pg.problems = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda err: pg.problems.append(f"page error: {err}"))  # type: ignore[attr-defined]
    pg.on("console", lambda m: pg.problems.append(f"console: {m.text}") if m.type == "error" else None)  # type: ignore[attr-defined]
    pg.on("dialog", lambda d: (pg.problems.append(f"dialog: {d.message}"), d.dismiss()))  # type: ignore[attr-defined]
    pg.on("request", lambda r: None if r.url.startswith((site, "data:")) else pg.problems.append(f"fetch: {r.url}"))  # type: ignore[attr-defined]
    yield pg
    problems = pg.problems  # type: ignore[attr-defined]
    context.close()
    assert problems == [], problems


def current(pg) -> str:
    return pg.locator("li.move.current .move-text").inner_text()


def step(pg) -> int:
    return int(pg.locator("body").get_attribute("data-step"))


def shows(pg, text: str) -> bool:
    """Wait until the current move-list line reads ``text`` (a step may load the next hand's page)."""
    try:
        wait_until(lambda: _current_or_none(pg) == text)
    except AssertionError:
        raise AssertionError(f"the current line reads {_current_or_none(pg)!r}, not {text!r}") from None
    return True


def _current_or_none(pg) -> str | None:
    try:
        return current(pg)
    except Exception:  # noqa: BLE001 - the page is being replaced (a hand's page loading)
        return None


def wait_until(ok, seconds: float = 30.0) -> None:
    """Poll ``ok()`` until it holds: a click's effect may come a moment later on a busy machine."""
    import time

    end = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < end, "the page did not reach the expected state"
        time.sleep(0.05)


def wait_step(pg, ok, seconds: float = 30.0) -> int:
    """Poll the page's step until ``ok(step)`` (the page's CSP forbids wait_for_function's eval)."""
    import time

    end = time.monotonic() + seconds
    while True:
        try:
            now = step(pg)
        except Exception:  # noqa: BLE001 - the page is being replaced (a hand's page loading)
            now = None
        if now is not None and ok(now):
            return now
        assert time.monotonic() < end, f"step {now}"
        pg.wait_for_timeout(30)


def test_open_a_record_and_step_with_keys_and_buttons(page, site, tmp_path: Path) -> None:
    page.goto(f"{site}/record/club.paifu")
    assert page.locator(".table .seat").count() == 4, page.locator("main").inner_text()[:2000]
    assert page.locator(".table svg.card[data-card='3C']").count() >= 1
    assert step(page) == 0 and shows(page, "hand 1 dealer=B")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert shows(page, "A: 3C 6C 8C TC JC")
    assert page.url.endswith("#s=5")
    assert "a club flush" in page.locator("#step-info .comment").inner_text()
    page.keyboard.press("ArrowLeft")
    assert step(page) == 4
    page.keyboard.press("End")
    assert shows(page, "score A +80 B -32 C -32 D -16")
    page.keyboard.press("Home")
    assert step(page) == 0
    page.click("#btn-forward")
    page.click("#btn-forward")
    assert step(page) == 2
    page.click("#btn-back")
    assert step(page) == 1
    page.click("#btn-last")
    assert current(page).startswith("score")
    page.click("#btn-first")
    assert step(page) == 0
    page.locator("a.move-link", has_text="A: 9D 9H QC QD QH").click()
    assert shows(page, "A: 9D 9H QC QD QH")
    page.screenshot(path=str(tmp_path / "bigtwo-record.png"), full_page=True)


def test_deep_link_shows_the_settlement(page, site, tmp_path: Path) -> None:
    page.goto(f"{site}/record/club.paifu")
    last = page.locator("a.move-link", has_text="A: AH").get_attribute("href")
    page.goto(f"{site}/record/club.paifu{last}")
    assert shows(page, "A: AH")
    box = page.locator(".settlement")
    assert "twos held" in box.inner_text() and "2を手に残していたら2倍負け" in box.inner_text()
    assert page.locator(".settlement .compare").inner_text().count("+80") == 3  # computed, written, totals after
    # the move that ends the hand already shows the seats' scores after it (not 0)
    assert page.locator(".seat[data-seat='A'] .score").inner_text() == "+80"
    assert page.locator(".seat[data-seat='D'] .score").inner_text() == "-16"
    assert page.locator(".settlement .mismatch").count() == 0
    page.screenshot(path=str(tmp_path / "bigtwo-settlement.png"), full_page=True)


def test_switch_perspective_hides_other_hands(page, site, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}/record/club.paifu#s=5")
    assert page.locator(".seat[data-seat='B'] [data-zone='hand'] svg.card[data-card='*']").count() == 0
    page.select_option("#perspective", "B")  # the server sends B's page: what B sees, nothing more
    page.wait_for_url("**seat=B#s=5")
    assert page.locator(".seat.place-bottom").get_attribute("data-seat") == "B"
    assert page.locator(".seat[data-seat='A'] [data-zone='hand'] svg.card[data-card='*']").count() == 8
    assert page.locator(".seat[data-seat='B'] [data-zone='hand'] svg.card[data-card='*']").count() == 0
    assert page.locator("li.move", has_text="deal A:").inner_text().strip() == "deal A: " + "*" * 13
    assert "3C 6C 8C 9D" not in page.content()  # A's deal is nowhere in the page's source
    page.keyboard.press("ArrowRight")
    assert "seat=B" in page.url and step(page) == 8  # over the variation, on along the main line
    page.screenshot(path=str(shots(tmp_path) / "viewer-seat.png"))
    page.select_option("#perspective", "")
    page.wait_for_url("**/club.paifu#s=8")
    assert page.locator(".seat[data-seat='A'] [data-zone='hand'] svg.card[data-card='*']").count() == 0


def test_an_old_perspective_link_opens_the_seats_page(page, site) -> None:
    page.goto(f"{site}/record/club.paifu#s=5&p=C")
    page.wait_for_url("**seat=C#s=5")
    assert page.locator(".seat.place-bottom").get_attribute("data-seat") == "C"
    assert step(page) == 5


def test_enter_and_leave_a_variation(page, site) -> None:
    page.goto(f"{site}/record/club.paifu#s=5")
    page.locator("#step-info a.var-link").first.click()
    assert shows(page, "A: 3C")
    assert "in a variation" in page.locator("#where").inner_text()
    assert page.locator("#btn-main").is_visible()
    page.keyboard.press("ArrowRight")
    assert shows(page, "B: 4S")
    assert page.locator("#btn-forward").is_disabled()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert step(page) == 4  # back out of the variation to its branch point
    page.locator("a.move-link", has_text="B: 4S").click()
    page.click("#btn-main")
    assert shows(page, "A: 3C 6C 8C TC JC")
    assert not page.locator("#btn-main").is_visible()


def test_an_error_is_shown_at_its_step(page, site, tmp_path: Path) -> None:
    page.goto(f"{site}/record/club.paifu?n=2")
    assert page.locator("#validity").inner_text() == "invalid"
    page.locator("li.move.has-error a.move-link").click()
    assert shows(page, "B: 3D 3S 4H")
    error = page.locator("#step-info .diag.error")
    assert "L301" in error.inner_text() and "no Big Two combination" in error.inner_text()
    page.keyboard.press("ArrowRight")
    assert "not replayed" in page.locator("#step-info").inner_text()
    page.screenshot(path=str(tmp_path / "bigtwo-error.png"), full_page=True)


def test_index_lists_and_links_records(page, site) -> None:
    page.goto(f"{site}/")
    assert page.locator("table.records tbody tr").count() >= 2
    page.locator("a", has_text="club.paifu #2").click()
    page.wait_for_url("**n=2")
    page.locator(".table").first.wait_for()  # drawn by the page's script once it has loaded
    assert page.locator(".table").count() == 1


def test_every_engine_draws_a_table(page, site, tmp_path: Path) -> None:
    page.goto(f"{site}/?sort=game")
    links = [a.get_attribute("href") for a in page.locator("a[href^='/record/games/']").all()]
    if not links:
        pytest.skip("no engine produced a selfplay record")
    for href in links:
        page.goto(f"{site}{href}#s=12")
        assert page.locator(".table .seat").count() >= 2, href
        assert page.locator(".table svg.card").count() > 0, href
        assert page.locator(".no-table").count() == 0, href
        name = href.rsplit("/", 1)[-1].split(".")[0]
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def test_page_keys_jump_between_hands(page, site) -> None:
    page.goto(f"{site}/record/two-hands.paifu")
    assert shows(page, "hand 1 dealer=A")
    page.keyboard.press("PageDown")
    assert shows(page, "hand 2 dealer=B") and "hand 2" in page.locator("#where").inner_text()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("PageUp")
    assert shows(page, "hand 2 dealer=B")
    page.keyboard.press("PageUp")
    assert shows(page, "hand 1 dealer=A")


# -- second pass ---------------------------------------------------------------------------
def test_a_completed_trick_is_shown_and_the_last_trick_on_request(page, site, tmp_path: Path) -> None:
    page.goto(f"{site}/record/ninetynine-game.paifu#s=12")
    assert shows(page, "A: 6C")
    box = page.locator(".center .last-trick.just-taken")
    assert box.locator(".zone-name").text_content() == "trick 1 taken by C"
    assert [c.get_attribute("data-card") for c in box.locator("svg.card").all()] == ["8D", "KD", "6C"]
    page.screenshot(path=str(tmp_path / "ninetynine-trick.png"))
    page.keyboard.press("ArrowRight")  # C leads the next trick: the taken trick is put away
    assert page.locator(".last-trick").count() == 0
    page.click("#btn-trick")  # ... and shown on request
    assert page.locator(".center .last-trick .zone-name").text_content() == "last trick (1), taken by C"
    page.keyboard.press("t")
    assert page.locator(".last-trick").count() == 0
    page.goto(f"{site}/record/piquet-partie.paifu#s=15")
    assert shows(page, "B: follow 9H")
    assert page.locator(".center .last-trick .zone-name").text_content() == "trick 1 taken by B"
    tricks = page.locator(".seat[data-seat='B'] [data-zone='tricks'] .count").inner_text()
    assert tricks == "× 1"  # a trick, not its two cards


def test_one_step_numbering_and_back_steps_back(page, site) -> None:
    page.goto(f"{site}/record/club.paifu#s=5")
    assert step(page) == 5 and "step 5 of 20" in page.locator("#where").inner_text()
    page.locator("a.move-link", has_text="A: 9D 9H QC QD QH").click()
    jumped = step(page)
    assert page.url.endswith(f"#s={jumped}") and f"step {jumped} of" in page.locator("#where").inner_text()
    page.click("#btn-last")
    assert current(page).startswith("score")
    page.go_back()
    wait_step(page, lambda n: n == jumped)
    page.go_back()
    wait_step(page, lambda n: n == 5)
    assert shows(page, "A: 3C 6C 8C TC JC")


def test_comment_commands_line_breaks_and_long_words(page, site) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}/record/commented.paifu#s=5")
    box = page.locator("#step-info .comment")
    text = box.locator(".comment-text").inner_text()
    assert text.startswith("a club flush\nsecond line") and "[%" not in box.inner_text()
    assert box.locator(".cmd-clk").inner_text().replace("\n", " ") == "clock 0:01:02"
    assert [c.get_attribute("data-card") for c in box.locator(".cmd-csl svg.card").all()] == ["3C", "JC"]
    marked = page.locator(".table svg.card.hl")
    assert sorted({c.get_attribute("data-card") for c in marked.all()}) == ["3C", "JC"]
    # nothing runs off the page: the 400-letter word wraps inside the panel
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    info = page.locator("#step-info").bounding_box()
    assert info["x"] + info["width"] <= 1280


def test_hands_after_an_illegal_action_say_so(page, site) -> None:
    page.goto(f"{site}/record/stopped.paifu")
    page.keyboard.press("PageDown")
    assert shows(page, "hand 2 dealer=C")
    assert page.locator(".table .seat").count() == 4  # hand 2's own deal, not hand 1's frozen table
    assert "N505" in page.locator("#step-info").inner_text()
    page.goto(f"{site}/record/unresumed.paifu")
    page.keyboard.press("PageDown")
    assert shows(page, "hand 2 dealer=B")
    message = page.locator(".no-table.not-replayed").inner_text()
    assert "Hand 2 is not replayed" in message and "line 8" in message and "L301" in message and "trump=" in message
    assert page.locator(".table .seat").count() == 0  # not hand 1's frozen table


def test_a_long_record_comes_a_hand_at_a_time(page, site) -> None:
    page.goto(f"{site}/record/ninetynine-game.paifu#s=39")
    size = len(page.content())
    assert "step 39 of 351" in page.locator("#where").inner_text()
    assert page.locator("li.move").count() < 60  # hand 1's lines only
    assert page.locator("#validity").inner_text() == "valid so far · 1 of 9 hands checked"  # replayed as far as it shows
    page.keyboard.press("End")  # the end of the main line: the last hand's page
    page.wait_for_url("**hand=9**")
    assert page.locator("#where").inner_text().startswith("hand 9")
    page.keyboard.press("Home")
    wait_step(page, lambda n: n == 0)
    page.locator("a.move-link").last.click()  # hand 1's last line
    wait_step(page, lambda n: n == 40)
    page.keyboard.press("ArrowRight")  # on into hand 2: its page
    wait_step(page, lambda n: n == 41)
    assert "hand=2" in page.url and shows(page, "hand 2 dealer=B")
    page.keyboard.press("ArrowLeft")  # back into hand 1
    wait_step(page, lambda n: n == 40)
    assert "hand=1" in page.url and size < 400_000
    page.fill("#jump-to", "h5")
    page.keyboard.press("Enter")
    page.wait_for_url("**hand=5**")
    wait_step(page, lambda n: n == 157)
    assert shows(page, "hand 5 dealer=B")


def shots(tmp_path: Path) -> Path:
    """Where the quiz and chart screenshots go: docs/ with PAIFU_DOCS_SCREENSHOTS=1 (to
    refresh the ones docs/viewer.md shows), else the test's temporary folder."""
    import os

    return Path(__file__).resolve().parent.parent / "docs" if os.environ.get("PAIFU_DOCS_SCREENSHOTS") == "1" else tmp_path


def test_quiz_mode_asks_the_seats_move_then_shows_what_was_played(page, site, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}/record/club.paifu")
    page.select_option("#quiz", "A")
    page.wait_for_url("**quiz=A**")
    assert page.locator(".seat.place-bottom").get_attribute("data-seat") == "A"
    assert page.locator(".seat[data-seat='B'] [data-zone='hand'] svg.card[data-card='*']").count() == 13
    assert page.locator("li.move:visible").count() == 1  # every later line hidden
    assert page.locator("#scores").is_hidden()  # and the scores after the hand
    for _ in range(4):
        page.keyboard.press("ArrowRight")  # the deal lines
    assert step(page) == 4 and "Your move as A" in page.locator("#quiz-box").inner_text()
    assert page.locator("#btn-forward").is_disabled()
    page.keyboard.press("ArrowRight")
    assert step(page) == 4  # no peeking: forward waits for the answer
    assert "club flush" not in page.locator("body").inner_text()  # nor the comment on the move
    choices = [b.inner_text() for b in page.locator("#quiz-box button.choice").all()]
    assert "3C 6C 8C TC JC" in choices and "3C" in choices and all("3C" in c for c in choices)
    page.screenshot(path=str(shots(tmp_path) / "viewer-quiz.png"))
    assert "3C 6C 8C TC JC" not in page.locator("#moves").inner_text()  # the move played is not in the page
    page.locator("#quiz-box button.choice", has_text="3C 6C 8C TC JC").click()
    wait_step(page, lambda n: n == 5)  # the server sends the steps as far as the next question
    assert "✓ You played it" in page.locator("#quiz-box").inner_text()
    assert "a club flush" in page.locator("#step-info .comment").inner_text()
    page.keyboard.press("ArrowRight")  # B's move: not asked
    assert step(page) == 8 and "Your move" not in page.locator("#quiz-box").inner_text()


def test_the_99_quiz_offers_the_bid_played_narrowed_by_clicking_cards(page, site, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    import json
    import urllib.request

    with urllib.request.urlopen(f"{site}/api/record/ninetynine-game.paifu?quiz=C&hand=1") as r:
        data = json.load(r)
    before = data["quiz_until"]  # C's first move is its bid: the first question, and all the page gets
    assert "C: bid QD AD AH" in data["steps"][-1]["choices"] and "C: bid QD AD AH" not in [e["text"] for e in data["steps"]]
    page.goto(f"{site}/record/ninetynine-game.paifu?quiz=C#s={before}")
    box = page.locator("#quiz-box")
    assert "Your move as C" in box.inner_text() and "220 legal moves" in box.inner_text()
    assert page.locator("#quiz-box button.choice").count() == 40  # the first 40: the cards narrow them
    for card in ("QD", "AD", "AH"):
        page.locator(f"#quiz-box .quiz-cards svg.card[data-card='{card}']").click()
    assert "1 with the cards picked" in box.inner_text()
    assert [b.inner_text() for b in page.locator("#quiz-box button.choice").all()] == ["bid QD AD AH"]
    page.screenshot(path=str(shots(tmp_path) / "viewer-quiz-99.png"))
    page.locator("#quiz-box button.choice").click()
    wait_step(page, lambda n: n == before + 1)
    assert "✓ You played it" in box.inner_text() and "Score: 1 of 1" in box.inner_text()
    assert "QD AD AH" not in page.locator("li.move", has_text="B: bid").first.inner_text()  # B's bid stays face down


def test_the_quiz_narrows_grouped_tiles_by_the_tile_clicked(page, site) -> None:
    import json
    import urllib.request

    from paifu.notation.cards import spelling_for_game

    with urllib.request.urlopen(f"{site}/api/record/games/sanma.paifu?quiz=A") as r:
        data = json.load(r)
    ask = data["steps"][-1]  # the first question: A's discard, by the tile
    page.goto(f"{site}/record/games/sanma.paifu?quiz=A#s={ask['i']}")
    tiles = spelling_for_game("sanma")
    chip = page.locator("#quiz-box .quiz-cards svg.card").first
    tile = chip.get_attribute("data-card")
    chip.click()
    want = sorted(c.split(": ", 1)[1] for c in ask["choices"]
                  if tile in [t for w in c.split()[2:] for t in (tiles.read(w) or [])])
    assert sorted(b.inner_text() for b in page.locator("#quiz-box button.choice").all()) == want and want


def test_the_quiz_skips_forced_moves_and_scores_at_the_end(page, site) -> None:
    # club.paifu's first record from A: its lead, its full house over D's (or a pass) and its
    # free lead of 2C 2S are asked; its last card, AH, is forced. One wrong answer, two right.
    page.goto(f"{site}/record/club.paifu?quiz=A")
    box = page.locator("#quiz-box")
    answers = ["3C", "9D 9H QC QD QH", "2C 2S"]
    for k, answer in enumerate(answers):
        for _ in range(40):
            if page.locator("#quiz-box button.choice").count():
                break
            page.keyboard.press("ArrowRight")
        assert "Your move as A" in box.inner_text(), k
        at = step(page)
        page.locator("#quiz-box button.choice").get_by_text(answer, exact=True).click()
        wait_step(page, lambda n: n > at)
    for _ in range(40):
        if "Quiz over" in box.inner_text():
            break
        assert page.locator("#quiz-box button.choice").count() == 0  # A's last card, AH, is not asked
        page.keyboard.press("ArrowRight")
    assert current(page).startswith("score")
    assert "Quiz over: you played 2 of 3 moves as the record plays them (67%)." in box.inner_text()


def test_score_chart_hand_table_autoplay_and_jump(page, site, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}/record/piquet-partie.paifu")
    chart = page.locator("#chart svg.score-chart")
    assert chart.locator("polyline.series").count() == 2
    rows = page.locator("#hand-table tr")
    assert rows.count() == 1 + 5  # a head and the five hands of the partie
    page.locator("#scores").screenshot(path=str(shots(tmp_path) / "viewer-chart.png"))
    rows.nth(2).locator("a.hand-link").click()  # hand 2's score line
    wait_until(lambda: page.locator("#where").inner_text().startswith("hand 2")
               and current(page).startswith(("score", "total")))
    page.fill("#jump-to", "h3")
    page.keyboard.press("Enter")
    assert shows(page, "hand 3 dealer=B")
    page.fill("#jump-to", "7")
    page.keyboard.press("Enter")
    wait_step(page, lambda n: n == 7)
    page.select_option("#speed", "200")
    page.click("#btn-play")
    wait_step(page, lambda n: n >= 10)
    page.click("#btn-play")
    assert page.locator("#btn-play").get_attribute("aria-pressed") == "false"
    stopped = step(page)
    page.wait_for_timeout(500)
    assert step(page) == stopped and page.locator("#btn-play").inner_text() == "▶ play"


def test_the_current_move_stays_in_view_at_1280_by_900(page, site) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}/record/jiuzhi-basics.paifu")
    last = int(page.locator("a.move-link").last.get_attribute("data-i"))
    for i in range(last + 1):
        page.evaluate(f"location.hash = 's={i}'")
        wait_step(page, lambda n: n == i)
        box = page.locator("#step-info .event-line").bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 900, i
        assert page.evaluate("window.scrollY") == 0


def test_a_phone_keeps_its_buttons_on_screen(browser, site) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{site}/record/ninetynine-game.paifu")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for _ in range(30):
            page.locator("#btn-forward").tap()
        assert step(page) >= 30  # (forward passes over the variations' lines)
        button = page.locator("#btn-forward").bounding_box()
        assert button is not None and 0 <= button["y"] and button["y"] + button["height"] <= 844
        assert page.locator(".table svg.card").count() > 0
    finally:
        context.close()


def test_export_the_position_as_svg_and_png(page, site, tmp_path: Path) -> None:
    import struct

    page.goto(f"{site}/record/club.paifu#s=5")
    with page.expect_download() as got:
        page.click("#btn-svg")
    svg_file = tmp_path / got.value.suggested_filename
    got.value.save_as(svg_file)
    text = svg_file.read_text(encoding="utf-8")
    assert got.value.suggested_filename == "club-step5.svg"
    assert text.startswith("<svg") and "<foreignObject" in text and 'data-card="JC"' in text and ".seat" in text
    assert "<script" not in text.replace("&lt;script", "")  # the player's name stays text
    with page.expect_download() as got:
        page.click("#btn-png")
    png = tmp_path / "club.png"
    got.value.save_as(png)
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    box = page.locator("#table").bounding_box()
    assert width == 2 * round(box["width"]) or abs(width - 2 * box["width"]) <= 2
    assert height >= 2 * box["height"] - 2


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_four_colour_cards_are_legible(page, site) -> None:
    """Yellow pieces on the ivory paper: WCAG contrast at least 3:1 (large bold text); the
    cards at least 24 px wide at 100% beside the table."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}/record/jiuzhi-basics.paifu#s=8")
    card = page.locator(".table svg.card[data-card^='Y']").first
    fill = card.locator("text").first.get_attribute("fill")
    paper = card.locator("rect").first.get_attribute("fill")
    light, dark = sorted([_luminance(paper), _luminance(fill)], reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 3.0, (fill, paper)
    for seat in ("A", "B", "C", "D"):
        box = page.locator(f".seat[data-seat='{seat}'] [data-zone='hand'] svg.card").first.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 64, (seat, box)


def test_a_link_into_a_quiz_past_its_first_question_opens_there(page, site) -> None:
    # club.paifu: the hand line, four deals, A's lead (5), its variation (6, 7), B C D (8-10),
    # A's full house (11), three passes (12-14), A's free lead (15)
    page.goto(f"{site}/record/club.paifu?quiz=A#s=12")  # past A's lead: the page asks the server for it
    wait_step(page, lambda n: n == 12)
    assert shows(page, "B: pass") and "step 12 of 20" in page.locator("#where").inner_text()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_step(page, lambda n: n == 14)
    page.keyboard.press("ArrowRight")  # A's free lead comes next: asked, forward waits
    assert "Your move as A" in page.locator("#quiz-box").inner_text() and step(page) == 14
