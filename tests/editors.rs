//! The editors: the TextMate grammar of editors/vscode tokenises every
//! bundled rule file (with vscode-textmate, as VS Code does) and knows every
//! keyword of the grammar; headless Neovim, a real LSP client, receives the
//! diagnostics of `rulebook lsp`.
//!
//! Neovim (Debian's `neovim`) and the npm packages of editors/vscode/test
//! are installed by `.ci/run`; these tests fail, not skip, without them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use rulebook::lsp::docs::Grammar;

fn words_of(pattern: &str) -> Vec<String> {
    let inner = pattern
        .split("(?:")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .unwrap_or("");
    inner.split('|').map(|w| w.replace('\\', "")).collect()
}

#[test]
fn textmate_grammar_knows_every_keyword() {
    let text = std::fs::read_to_string("editors/vscode/syntaxes/rulebook.tmLanguage.json").unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let repo = &json["repository"];
    let mut highlighted = words_of(repo["statement-keyword"]["match"].as_str().unwrap());
    highlighted.extend(words_of(repo["keyword"]["match"].as_str().unwrap()));
    highlighted.sort();
    let mut keywords: Vec<String> = Grammar::load().keywords.into_values().collect();
    keywords.sort();
    keywords.dedup();
    assert_eq!(
        highlighted, keywords,
        "the keywords of editors/vscode/syntaxes/rulebook.tmLanguage.json differ from grammar/rules.pest"
    );
}

fn rule_files(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rule_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rules") {
            out.push(
                std::fs::canonicalize(&p)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
}

#[test]
fn textmate_grammar_tokenises_every_bundled_file() {
    let test_dir = Path::new("editors/vscode/test");
    assert!(
        test_dir.join("node_modules/vscode-textmate").is_dir(),
        "vscode-textmate is missing: `npm ci --prefix editors/vscode/test` (done by .ci/run)"
    );
    let mut files = Vec::new();
    rule_files(Path::new("games"), &mut files);
    rule_files(Path::new("tests/fixtures/games"), &mut files);
    rule_files(Path::new("tests/fixtures/race"), &mut files);
    files.sort();
    let out = Command::new("node")
        .arg(test_dir.join("tokenize.js"))
        .args(&files)
        .output()
        .expect("node runs (Debian's nodejs)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("files {}", files.len())),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("unknown 0"), "{stdout}");
    println!("{stdout}");
}

#[test]
fn neovim_receives_the_diagnostics() {
    let version = Command::new("nvim").arg("--version").output();
    assert!(
        version.is_ok_and(|o| o.status.success()),
        "nvim is missing: `apt-get install neovim` (done by .ci/run)"
    );
    let dir = std::env::temp_dir().join(format!("rulebook-nvim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("broken.rules");
    let text = std::fs::read_to_string("games/draughts.rules")
        .unwrap()
        .replacen("jump short diagonal", "jump short diagnal", 1);
    std::fs::write(&rules, &text).unwrap();
    let out = dir.join("diagnostics.txt");
    let init = dir.join("init.lua");
    // The set-up for Neovim 0.7 as editors/neovim.md gives it, copied as a
    // person would: the first `lua` block after its heading.
    let doc = std::fs::read_to_string("editors/neovim.md").unwrap();
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Neovim 0.7"))
        .expect("editors/neovim.md has a section for Neovim 0.7");
    let setup = section
        .split("```lua\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a lua block in the 0.7 section");
    std::fs::write(
        &init,
        format!(
            r#"{setup}
vim.cmd("edit {rules}")
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {{}}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ""
  table.insert(lines, string.format("%d:%d %s %s", d.lnum + 1, d.col + 1, code, d.message:gsub("\n", " | ")))
end
vim.fn.writefile(lines, "{out}")
vim.cmd("qa!")
"#,
            rules = rules.display(),
            out = out.display(),
        ),
    )
    .unwrap();
    // `rulebook` on the PATH, as the set-up expects.
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_rulebook")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", init.display()))
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("nvim did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let got = std::fs::read_to_string(&out).unwrap_or_default();
    let offset = text.find("diagnal").unwrap();
    let line = text[..offset].matches('\n').count() + 1;
    let col = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1) + 1;
    assert_eq!(
        got.trim_end(),
        format!(
            "{line}:{col} E002 unknown direction `diagnal`: not a direction | help: did you mean `diagonal`?"
        ),
        "what Neovim received"
    );
    std::fs::remove_dir_all(&dir).ok();
}
