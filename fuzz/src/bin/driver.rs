//! A stable-Rust fuzz driver: no libFuzzer, no coverage feedback, just a seeded mutation
//! loop over real inputs with a panic catcher and a hang watchdog.
//!
//! ```text
//! cargo run --release --no-default-features --bin driver -- TARGET [SECONDS] [SEED]
//! cargo run --release --no-default-features --bin driver -- TARGET --replay PATH...
//! ```
//!
//! Seeds: `fixtures/` of the checkout and `../shared/corpus` when present (PDN files; for
//! `fen` the FEN tags found in them, for `move_token` their words), plus `fuzz/corpus/TARGET/`.
//! A panicking input is saved as `fuzz/artifacts/TARGET/crash-HASH`, an input that runs
//! longer than the hang limit as `hang-HASH` (then the driver exits with status 3).

use pdnkit_gen::SplitMix64;
use pdnkit_fuzz::targets;
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::panic;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Hang limit for one execution.
const HANG: Duration = Duration::from_secs(10);

const DICT: &[&[u8]] = &[
    b"(",
    b")",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\0",
    b"\xff\xfe",
    b"\xfe\xff",
    b"\xef\xbb\xbf",
    b"\xc3",
    b"\xe2\x80",
    b"%",
    b";",
    b"/FEN \"",
    b"\"/",
    b"$",
    b"$999999999999",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"2-0",
    b"1-1",
    b"0-0",
    b"*",
    b"\n[Event \"",
    b"[FEN \"",
    b"[GameType \"",
    b"\\",
    b"x",
    b"X",
    b":",
    b"-",
    b"((((((((",
    b"))))",
    b"K",
    b"W:",
    b"B:",
    b"?:",
    b":W",
    b":B",
    b",",
    b"1.",
    b"1...",
    b"99999.",
    b"4294967296",
    b"- -",
    b"!",
    b"?!",
    b"\r",
    b"\r\n",
    b"\t",
    b"c3",
    b"h8",
    b"a1",
    b"i9",
    b"z0",
    b"33",
    b"0",
    b"32",
    b"1-32",
    b"K1-K4",
    b"12-5",
    b"1-9999",
    b".",
    b"..",
    b"#",
    b"+",
    b"\xd0\xb0",
    b"\xe4",
    b"\x1a",
    b"\x00\x00",
    b" ",
];

fn mutate(rng: &mut SplitMix64, input: &mut Vec<u8>, others: &[Vec<u8>], max: usize) {
    for _ in 0..1 + rng.index(6) {
        let at = rng.index(input.len() + 1);
        match rng.index(9) {
            0 if !input.is_empty() => {
                let i = at.min(input.len() - 1);
                input[i] ^= 1 << rng.index(8);
            }
            1 if !input.is_empty() => {
                let i = at.min(input.len() - 1);
                input[i] = rng.next_u64() as u8;
            }
            2 => input.truncate(at),
            3 | 4 => {
                let ins = DICT[rng.index(DICT.len())];
                input.splice(at..at, ins.iter().copied());
            }
            5 if !input.is_empty() => {
                let end = (at + 1 + rng.index(32)).min(input.len());
                input.drain(at.min(end)..end);
            }
            6 if !input.is_empty() => {
                // duplicate a chunk somewhere
                let start = rng.index(input.len());
                let end = (start + 1 + rng.index(64)).min(input.len());
                let chunk = input[start..end].to_vec();
                let to = rng.index(input.len() + 1);
                input.splice(to..to, chunk);
            }
            7 if !others.is_empty() => {
                // splice in a piece of another seed
                let o = &others[rng.index(others.len())];
                if !o.is_empty() {
                    let start = rng.index(o.len());
                    let end = (start + 1 + rng.index(256)).min(o.len());
                    input.splice(at..at, o[start..end].iter().copied());
                }
            }
            _ if !input.is_empty() => {
                // tweak a digit: move numbers, squares, NAGs
                let i = at.min(input.len() - 1);
                if input[i].is_ascii_digit() {
                    input[i] = b'0' + rng.index(10) as u8;
                } else {
                    input.insert(at, b'0' + rng.index(10) as u8);
                }
            }
            _ => input.push(rng.next_u64() as u8),
        }
    }
    input.truncate(max);
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn seeds(target: &str, root: &Path) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    files_under(&root.join("fixtures"), &mut files);
    files_under(&root.join("../shared/corpus"), &mut files);
    let mut pdn: Vec<Vec<u8>> = files
        .iter()
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pdn") || e == "txt")
        })
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    // whole files are big; for reader/replay keep slices of games too
    let mut seeds: Vec<Vec<u8>> = match target {
        "fen" => {
            let mut fens: HashSet<Vec<u8>> = HashSet::new();
            for f in &pdn {
                let text = String::from_utf8_lossy(f);
                for part in text.split("FEN \"").skip(1) {
                    if let Some(end) = part.find('"') {
                        fens.insert(part.as_bytes()[..end].to_vec());
                    }
                }
            }
            for s in [
                "W:W21-32:B1-12",
                "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
                "W:Wa1,c3,Kh8:Bb8",
                "?:W:B1",
                "W:BK1-K4:W32.",
                "W:W21-32:B1-12:H0:F1",
            ] {
                fens.insert(s.as_bytes().to_vec());
            }
            fens.into_iter().collect()
        }
        "move_token" => {
            let mut words: HashSet<Vec<u8>> = HashSet::new();
            for f in pdn.iter().take(200) {
                let text = String::from_utf8_lossy(f);
                for w in text.split_whitespace() {
                    if w.len() <= 40 && w.bytes().any(|b| b.is_ascii_digit()) {
                        words.insert(w.as_bytes().to_vec());
                    }
                    if words.len() > 20_000 {
                        break;
                    }
                }
            }
            for s in [
                "c3-d4", "a1:f6", "a1xc3xe5", "f4:h2", "22x15", "29-18-27", "c5:a7",
            ] {
                words.insert(s.as_bytes().to_vec());
            }
            words.into_iter().collect()
        }
        _ => {
            let mut out = Vec::new();
            for f in pdn.drain(..) {
                if f.len() <= 16_384 {
                    out.push(f);
                } else {
                    // a few game-sized windows of a big file
                    for k in 0..8 {
                        let start = f.len() / 8 * k;
                        out.push(f[start..(start + 8_192).min(f.len())].to_vec());
                    }
                }
            }
            out
        }
    };
    let mut extra = Vec::new();
    files_under(&root.join("fuzz/corpus").join(target), &mut extra);
    seeds.extend(extra.iter().filter_map(|p| std::fs::read(p).ok()));
    seeds.sort();
    if seeds.is_empty() {
        seeds.push(Vec::new());
    }
    seeds
}

fn hash(data: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    data.hash(&mut h);
    h.finish()
}

fn save(root: &Path, target: &str, kind: &str, data: &[u8]) -> PathBuf {
    let dir = root.join("fuzz/artifacts").join(target);
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{kind}-{:016x}", hash(data)));
    let _ = std::fs::write(&path, data);
    path
}

fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "?".into())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: driver TARGET [SECONDS] [SEED] | driver TARGET --replay PATH...");
        eprintln!(
            "targets: {}",
            targets::TARGETS
                .iter()
                .map(|t| t.0)
                .collect::<Vec<_>>()
                .join(", ")
        );
        std::process::exit(2);
    };
    let Some(target) = targets::by_name(name) else {
        eprintln!("unknown target {name}");
        std::process::exit(2);
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let last_location: Arc<Mutex<String>> = Arc::default();
    {
        let last = last_location.clone();
        panic::set_hook(Box::new(move |info| {
            let loc = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            *last.lock().unwrap() = loc;
        }));
    }

    if args.get(1).map(String::as_str) == Some("--replay") {
        let mut files = Vec::new();
        for p in &args[2..] {
            let p = PathBuf::from(p);
            if p.is_dir() {
                files_under(&p, &mut files);
            } else {
                files.push(p);
            }
        }
        let mut failed = 0;
        for f in &files {
            let data = std::fs::read(f).expect("read input");
            let started = Instant::now();
            match panic::catch_unwind(|| target(&data)) {
                Ok(()) => println!("ok    {} ({:?})", f.display(), started.elapsed()),
                Err(e) => {
                    failed += 1;
                    println!(
                        "PANIC {} at {}: {}",
                        f.display(),
                        last_location.lock().unwrap(),
                        panic_message(&*e)
                    );
                }
            }
        }
        std::process::exit(i32::from(failed > 0));
    }

    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
    let seeds = seeds(name, &root);
    let max = match name.as_str() {
        "fen" | "move_token" => 512,
        _ => 65_536,
    };
    eprintln!(
        "fuzzing {name} for {seconds}s from {} seeds (rng seed {seed})",
        seeds.len()
    );

    // watchdog: an execution running longer than HANG is saved and ends the run
    let current: Arc<Mutex<Vec<u8>>> = Arc::default();
    let started_ms = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    {
        let current = current.clone();
        let started_ms = started_ms.clone();
        let root = root.clone();
        let name = name.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                let s = started_ms.load(Ordering::Relaxed);
                if s != 0
                    && (epoch.elapsed().as_millis() as u64).saturating_sub(s)
                        > HANG.as_millis() as u64
                {
                    let data = current.lock().unwrap().clone();
                    let path = save(&root, &name, "hang", &data);
                    eprintln!("HANG: an input ran over {HANG:?}; saved {}", path.display());
                    std::process::exit(3);
                }
            }
        });
    }

    let mut rng = SplitMix64::new(seed);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut execs: u64 = 0;
    let mut crashes: HashSet<String> = HashSet::new();
    let mut slowest = Duration::ZERO;
    let mut input = Vec::new();
    while Instant::now() < deadline {
        for _ in 0..64 {
            // mostly fresh mutants of a seed, sometimes a mutant of the last mutant
            if rng.index(4) != 0 {
                input.clear();
                input.extend_from_slice(&seeds[rng.index(seeds.len())]);
            }
            mutate(&mut rng, &mut input, &seeds, max);
            *current.lock().unwrap() = input.clone();
            let t = Instant::now();
            started_ms.store(epoch.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
            let result = panic::catch_unwind(|| target(&input));
            started_ms.store(0, Ordering::Relaxed);
            slowest = slowest.max(t.elapsed());
            execs += 1;
            if let Err(e) = result {
                let loc = last_location.lock().unwrap().clone();
                if crashes.insert(loc.clone()) {
                    let path = save(&root, name, "crash", &input);
                    eprintln!(
                        "CRASH at {loc}: {}\n  saved {}",
                        panic_message(&*e),
                        path.display()
                    );
                }
            }
        }
    }
    let secs = seconds.max(1);
    println!(
        "{name}: {execs} executions in {seconds}s ({}/s), slowest {slowest:?}, {} distinct crash sites",
        execs / secs,
        crashes.len()
    );
    std::process::exit(i32::from(!crashes.is_empty()));
}
