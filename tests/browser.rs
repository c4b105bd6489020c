//! The pages in a real browser: headless Chromium, driven through the DevTools protocol
//! (`headless_chrome`, which here downloads nothing). Each page is opened from a file and
//! must render without a console error or an uncaught exception; then
//! - the lint report shows one board per finding that holds a position, and its filters
//!   hide findings;
//! - the game viewer steps forward and back with the arrow keys and reaches the final
//!   position of the game (as `show --format fen` gives it), keeps the ply in the address
//!   and opens at the ply an address names;
//! - the charts of `stats` hold the numbers of `stats --format json`.
//!
//! A screenshot of each page is saved in `target/screenshots/`.
//!
//! Chromium is `/usr/bin/chromium` (or `$PDNKIT_CHROMIUM`). Without it these tests say so
//! and pass, unless `PDNKIT_BROWSER_TESTS=1` (set by `.ci/run`), which makes its absence
//! a failure.

use headless_chrome::protocol::cdp::Emulation;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::protocol::cdp::Runtime::ConsoleAPICalledEventTypeOption;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The browser, or `None` (said on stderr) where there is none and none is required.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PDNKIT_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if path.exists() {
        return Some(path);
    }
    let required = std::env::var("PDNKIT_BROWSER_TESTS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "PDNKIT_BROWSER_TESTS=1 but there is no browser at {}",
        path.display()
    );
    eprintln!(
        "SKIPPED: browser test: no Chromium at {} (apt-get install chromium; PDNKIT_BROWSER_TESTS=1 makes this a failure)",
        path.display()
    );
    None
}

/// A browser with a profile of its own, and the tab that opens the pages.
struct Headless {
    _browser: Browser,
    tab: Arc<Tab>,
    /// Console errors and uncaught exceptions, as text.
    errors: Arc<Mutex<Vec<String>>>,
    _profile: tempfile::TempDir,
}

fn headless(chromium: PathBuf) -> Headless {
    let profile = tempfile::tempdir().unwrap();
    // (without the flags that stop its background traffic, Chromium misbehaves on a
    // machine without a network)
    let args: Vec<&OsStr> = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let options = LaunchOptions::default_builder()
        .path(Some(chromium))
        .headless(true)
        .sandbox(false)
        .user_data_dir(Some(profile.path().to_path_buf()))
        .window_size(Some((1280, 1600)))
        .idle_browser_timeout(Duration::from_secs(60))
        .args(args)
        .build()
        .unwrap();
    let browser = Browser::new(options).unwrap();
    let tab = browser.new_tab().unwrap();
    let errors = Arc::new(Mutex::new(Vec::new()));
    tab.enable_log().unwrap();
    tab.enable_runtime().unwrap();
    let seen = Arc::clone(&errors);
    tab.add_event_listener(Arc::new(move |event: &Event| {
        let error = match event {
            Event::RuntimeConsoleAPICalled(e)
                if e.params.Type == ConsoleAPICalledEventTypeOption::Error =>
            {
                Some(format!("console.error: {:?}", e.params.args))
            }
            Event::RuntimeExceptionThrown(e) => {
                Some(format!("exception: {:?}", e.params.exception_details))
            }
            Event::LogEntryAdded(e)
                if format!("{:?}", e.params.entry.level).eq_ignore_ascii_case("error") =>
            {
                Some(format!("log: {}", e.params.entry.text))
            }
            _ => None,
        };
        if let Some(error) = error {
            seen.lock().unwrap().push(error);
        }
    }))
    .unwrap();
    Headless {
        _browser: browser,
        tab,
        errors,
        _profile: profile,
    }
}

impl Headless {
    /// Opens `url` and waits for it to load.
    fn open(&self, url: &str) {
        self.tab.navigate_to(url).unwrap();
        self.tab.wait_until_navigated().unwrap();
        // (the page's script has run when the document is complete)
        self.eval("document.readyState");
    }

    /// The value of `expression` in the page.
    fn eval(&self, expression: &str) -> Value {
        let result = self.tab.evaluate(expression, false).unwrap();
        result.value.unwrap_or(Value::Null)
    }

    fn no_errors(&self, page: &str) {
        let errors = self.errors.lock().unwrap();
        assert!(errors.is_empty(), "{page}: {errors:#?}");
    }

    /// A screenshot of the whole page, saved as `target/screenshots/NAME.png`.
    fn screenshot(&self, name: &str) {
        let height = self
            .eval("document.documentElement.scrollHeight")
            .as_f64()
            .unwrap_or(1600.0);
        let height = height.min(6000.0);
        // (the window made as tall as the page: the browser paints a finding only when it
        // is in view)
        self.tab
            .call_method(Emulation::SetDeviceMetricsOverride {
                width: 1280,
                height: height as u32,
                device_scale_factor: 1.0,
                mobile: false,
                scale: None,
                screen_width: None,
                screen_height: None,
                position_x: None,
                position_y: None,
                dont_set_visible_size: None,
                screen_orientation: None,
                viewport: None,
                display_feature: None,
                device_posture: None,
            })
            .unwrap();
        let clip = headless_chrome::protocol::cdp::Page::Viewport {
            x: 0.0,
            y: 0.0,
            width: 1280.0,
            height,
            scale: 1.0,
        };
        let png = self
            .tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, Some(clip), true)
            .unwrap();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

fn pdnkit(args: &[&str]) -> String {
    let out = assert_cmd::cargo::cargo_bin_cmd!("pdnkit")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// Writes `page` to a file and gives its `file://` address.
fn page_file(dir: &Path, name: &str, page: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, page).unwrap();
    format!("file://{}", path.display())
}

#[test]
fn the_lint_report_draws_a_board_per_rule_error_and_filters() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = "fixtures/html/errors.pdn";
    let url = page_file(
        dir.path(),
        "report.html",
        &pdnkit(&["lint", file, "--format", "html"]),
    );
    // the rule errors that hold a position: the illegal moves
    let findings: Vec<Value> = pdnkit(&["lint", file, "--format", "jsonl"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let illegal = findings.iter().filter(|d| d["code"] == "M101").count();
    assert_eq!(illegal, 3);

    let s = headless(chromium);
    s.open(&url);
    let boards = s.eval("document.querySelectorAll('li.finding figure.position svg.board').length");
    assert_eq!(boards, illegal);
    let on_rule_errors = s.eval(
        "[...document.querySelectorAll('figure.position')].every(f => f.closest('li').dataset.code === 'M101')",
    );
    assert_eq!(on_rule_errors, true);
    // each board has its pieces drawn over the frame, and the legal moves as arrows
    let pieces = s.eval("document.querySelector('svg.board').querySelectorAll('circle').length");
    assert!(pieces.as_u64().unwrap() >= 20, "{pieces}");
    let frame = s.eval("document.querySelector('svg.board use').getBoundingClientRect().width");
    assert!(
        frame.as_f64().unwrap() > 200.0,
        "the frame is drawn: {frame}"
    );
    assert_eq!(
        s.eval("document.querySelectorAll('li.finding').length"),
        findings.len()
    );
    s.screenshot("lint-report");
    // unticking M101 hides its findings
    let visible = "[...document.querySelectorAll('li.finding')].filter(li => getComputedStyle(li).display !== 'none').length";
    s.eval("(() => { const box = document.querySelector('input[name=code][value=M101]'); box.click(); })()");
    assert_eq!(s.eval(visible), findings.len() - illegal);
    assert_eq!(
        s.eval("document.getElementById('shown-count').textContent"),
        (findings.len() - illegal).to_string()
    );
    s.eval("document.querySelector('input[name=severity][value=warning]').click()");
    let errors_left = findings
        .iter()
        .filter(|d| d["code"] != "M101" && d["severity"] != "warning")
        .count();
    assert_eq!(s.eval(visible), errors_left);
    s.no_errors("lint report");
}

#[test]
fn the_viewer_steps_with_the_keys_to_the_final_position() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (file, game) = ("fixtures/html/games.pdn", "34");
    let url = page_file(
        dir.path(),
        "game.html",
        &pdnkit(&["show", file, "--game", game, "--format", "html"]),
    );
    let last_fen = pdnkit(&["show", file, "--game", game, "--format", "fen"]);
    let last_fen = last_fen.trim();
    let ascii = pdnkit(&["show", file, "--game", game]);
    // (`game 34, after ply 42: …`)
    let plies: u64 = ascii
        .split("after ply ")
        .nth(1)
        .and_then(|s| s.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let fen_at = |k: u64| {
        pdnkit(&[
            "show",
            file,
            "--game",
            game,
            "--format",
            "fen",
            "--ply",
            &k.to_string(),
        ])
        .trim()
        .to_string()
    };

    let s = headless(chromium);
    s.open(&url);
    let ply = || s.eval("document.getElementById('board').dataset.ply");
    let fen = || s.eval("document.getElementById('board').dataset.fen");
    assert_eq!(ply(), "0");
    assert_eq!(fen(), fen_at(0));
    for _ in 0..plies {
        s.tab.press_key("ArrowRight").unwrap();
    }
    assert_eq!(ply(), plies.to_string());
    assert_eq!(fen(), last_fen);
    // one more step stays at the end
    s.tab.press_key("ArrowRight").unwrap();
    assert_eq!(fen(), last_fen);
    s.tab.press_key("ArrowLeft").unwrap();
    s.tab.press_key("ArrowLeft").unwrap();
    assert_eq!(ply(), (plies - 2).to_string());
    assert_eq!(fen(), fen_at(plies - 2));
    assert_eq!(s.eval("location.hash"), format!("#ply={}", plies - 2));
    // the current move is marked in the list
    assert_eq!(
        s.eval("document.querySelector('a.mv.current').dataset.ply"),
        (plies - 2).to_string()
    );
    s.tab.press_key("Home").unwrap();
    assert_eq!(fen(), fen_at(0));
    // an address with a ply opens there (a page loaded anew, not the hash changed)
    s.open("about:blank");
    s.open(&format!("{url}#ply=20"));
    assert_eq!(ply(), "20");
    assert_eq!(fen(), fen_at(20));
    s.screenshot("game-viewer");
    s.no_errors("game viewer");
}

#[test]
fn the_charts_hold_the_numbers_of_the_json_report() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = "fixtures/html/games.pdn";
    let url = page_file(
        dir.path(),
        "stats.html",
        &pdnkit(&["stats", file, "--format", "html", "-q"]),
    );
    let json: Value = serde_json::from_str(&pdnkit(&[
        "stats", file, "--format", "json", "--by", "year", "-q",
    ]))
    .unwrap();

    let s = headless(chromium);
    s.open(&url);
    let data = |selector: &str, fields: &[&str]| -> Vec<Vec<String>> {
        let fields = serde_json::to_string(fields).unwrap();
        let selector = serde_json::to_string(selector).unwrap();
        let rows = s.eval(&format!(
            "JSON.stringify([...document.querySelectorAll({selector})].map(e => {fields}.map(f => e.dataset[f])))"
        ));
        serde_json::from_str(rows.as_str().unwrap()).unwrap()
    };
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };

    // the lengths' histogram
    let bins: Vec<Vec<String>> = (json["length"]["histogram"].as_array().unwrap().iter())
        .map(|b| vec![text(&b["from"]), text(&b["to"]), text(&b["games"])])
        .collect();
    assert!(!bins.is_empty());
    assert_eq!(
        data("svg[data-chart=lengths] rect.bar", &["from", "to", "games"]),
        bins
    );

    // results by year
    let groups: Vec<Vec<String>> = (json["groups"].as_array().unwrap().iter())
        .map(|g| {
            let others = g["both_lose"].as_u64().unwrap() + g["unknown"].as_u64().unwrap();
            vec![
                text(&g["key"]),
                text(&g["games"]),
                text(&g["white_wins"]),
                text(&g["draws"]),
                text(&g["black_wins"]),
                others.to_string(),
            ]
        })
        .collect();
    assert!(groups.len() > 1);
    assert_eq!(
        data(
            "svg[data-chart=results] g.group",
            &["key", "games", "whiteWins", "draws", "blackWins", "others"]
        ),
        groups
    );

    // players and their scores (as numbers: `50` in the page is `50.0` in the JSON)
    let players: Vec<Vec<String>> = (json["players"].as_array().unwrap().iter())
        .map(|p| {
            ["name", "games", "wins", "draws", "losses"]
                .iter()
                .map(|f| text(&p[f]))
                .collect()
        })
        .collect();
    let scores: Vec<Option<f64>> = (json["players"].as_array().unwrap().iter())
        .map(|p| p["score"].as_f64())
        .collect();
    assert!(!players.is_empty());
    let drawn = data(
        "svg[data-chart=players] g.player",
        &["name", "games", "wins", "draws", "losses", "score"],
    );
    let drawn_scores: Vec<Option<f64>> = drawn.iter().map(|r| r[5].parse().ok()).collect();
    let drawn: Vec<Vec<String>> = drawn
        .into_iter()
        .map(|mut r| {
            r.truncate(5);
            r
        })
        .collect();
    assert_eq!(drawn, players);
    assert_eq!(drawn_scores, scores);

    // the openings' tree: each opening listed ends at one of its rows, with its games, and
    // the first moves hold them all
    let openings = json["openings"]["top"].as_array().unwrap();
    let listed: u64 = openings.iter().map(|o| o["games"].as_u64().unwrap()).sum();
    let rows = data(
        "svg[data-chart=openings] g.opening",
        &["depth", "games", "ends"],
    );
    let number = |r: &Vec<String>, i: usize| r[i].parse::<u64>().unwrap();
    let roots: u64 = rows
        .iter()
        .filter(|r| r[0] == "0")
        .map(|r| number(r, 1))
        .sum();
    assert_eq!(roots, listed);
    let mut ends: Vec<u64> = rows
        .iter()
        .map(|r| number(r, 2))
        .filter(|&n| n > 0)
        .collect();
    let mut games: Vec<u64> = openings
        .iter()
        .map(|o| o["games"].as_u64().unwrap())
        .collect();
    ends.sort_unstable();
    games.sort_unstable();
    assert_eq!(ends, games);

    // the tables are there too
    assert_eq!(
        s.eval("document.querySelectorAll('section.tables table').length")
            .as_u64()
            .map(|n| n >= 6),
        Some(true)
    );
    s.screenshot("stats");
    s.no_errors("stats");
}
