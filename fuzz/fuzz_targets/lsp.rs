//! The language server's analysis of any text, as it answers while a file
//! is being typed: diagnostics, the outline, and hover, completion,
//! definition and references at offsets taken from the input (with the
//! bundled games reachable through `extends`). It must never panic.
#![no_main]
use std::collections::HashMap;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use rulebook::lsp::analysis::{check, chain, lsp_diagnostics, outline, Context};
use rulebook::lsp::docs::Grammar;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let path = Path::new("/nonexistent-dir/fuzz.rules");
    let open = HashMap::new();
    let checked = check(path, &text, &open);
    let _ = lsp_diagnostics(&checked, &text);
    let own = outline(&text);
    let files: Vec<_> = chain(path, &text, &open)
        .into_iter()
        .map(|f| {
            let o = outline(&f.text);
            (f, o)
        })
        .collect();
    let grammar = Grammar::load();
    let cx = Context {
        path,
        text: &text,
        outline: &own,
        chain: &files,
        game: checked.board().map(|t| t.game()),
        grammar: &grammar,
    };
    let _ = cx.symbols();
    // A few offsets from the input's own bytes, clamped to the text.
    for &b in data.iter().take(8) {
        let at = (usize::from(b) * 7919) % (text.len() + 1);
        let _ = cx.hover(at);
        let _ = cx.completions(at);
        let _ = cx.definition(at);
        let _ = cx.references(at);
    }
});
