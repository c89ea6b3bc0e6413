//! The sections of `rulebook man` that clap's definition doesn't hold:
//! EXIT STATUS, ENVIRONMENT, EXAMPLES and the commands of the prompt, in
//! roff, after the page clap_mangen writes.

/// Roff text with its backslashes and leading dots and quotes made plain.
fn plain(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e").replace('-', "\\-");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The commands of a prompt's help text (its lines after `Commands`), as
/// a roff list.
fn commands(help: &str) -> String {
    // A command's line starts with two spaces, its name and two spaces more;
    // a line indented further goes on with the line above.
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in help.lines().filter(|l| l.starts_with("  ")) {
        if line.starts_with("   ") {
            if let Some((_, what)) = entries.last_mut() {
                what.push(' ');
                what.push_str(line.trim());
            }
            continue;
        }
        let line = line.trim();
        let (name, what) = line.split_once("  ").unwrap_or((line, ""));
        entries.push((name.to_string(), what.trim().to_string()));
    }
    let mut out = String::new();
    for (name, what) in entries {
        out.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            plain(&name),
            plain(&what)
        ));
    }
    out
}

/// The sections, in roff.
pub(crate) fn sections() -> String {
    let mut s = String::new();
    s.push_str(".SH \"EXIT STATUS\"\n");
    s.push_str(&plain(
        "0 when the command did what was asked (also when the reader of its output goes away);
2 when the command line is wrong: an unknown command, option, game, agent or side, a value
out of range or of the wrong form, a file that isn't there or can't be read as what it
should be, an output path that can't be written, a flag that doesn't fit the game;
1 when the command line is right but what it names fails: a rule file with errors, a record
or PDN whose moves don't replay, a formatting difference under fmt --check, a write that
fails midway; 130 for a simulate stopped by Ctrl-C.",
    ));
    s.push('\n');
    s.push_str(".SH ENVIRONMENT\n.TP\n\\fBNO_COLOR\\fR\n");
    s.push_str(&plain(
        "When set (to anything), no colour: the board, the track and check's messages are plain\ntext, as when the output is not a terminal.",
    ));
    s.push('\n');
    s.push_str(".SH EXAMPLES\n");
    for (what, line) in [
        ("The bundled games and their options:", "rulebook list"),
        (
            "Play GAME (a name rulebook list gives, or a .rules file) against the computer:",
            "rulebook play GAME --black greedy --record game.jsonl",
        ),
        (
            "A race game between three computer players, replayed:",
            "rulebook play RACE --players 3 --seat 1=random --seat 2=random --seat 3=random --seed 5 --record game.jsonl; rulebook replay game.jsonl",
        ),
        (
            "A thousand games between two computer players, with a chart:",
            "rulebook simulate GAME --games 1000 --agents greedy,random --svg chart.svg",
        ),
        ("A saved game as PDN:", "rulebook export game.jsonl --pdn -o game.pdn"),
        (
            "Completions for bash:",
            "rulebook completions bash > ~/.local/share/bash-completion/completions/rulebook",
        ),
    ] {
        s.push_str(&format!(".PP\n{}\n.PP\n.RS\n\\fB{}\\fR\n.RE\n", plain(what), plain(line)));
    }
    s.push_str(".SH \"PROMPT COMMANDS\"\n");
    s.push_str(&plain(
        "At the prompt of play, a move in the game's notation (a board game) or a choice for the roll\n(a race game), or one of these commands.",
    ));
    s.push_str("\n.SS \"Board games\"\n");
    s.push_str(&commands(super::prompt::HELP));
    s.push_str(".SS \"Race games\"\n");
    s.push_str(&commands(super::race::RACE_HELP));
    s
}
