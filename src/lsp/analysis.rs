//! What the server knows about one document: the library's check of it
//! (diagnostics, the compiled game) and the names it defines and uses,
//! read from the library's parse tree. Everything here is a plain function
//! of texts, so it is tested without a client.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types as lt;
use pest::iterators::Pair;
use pest::Parser;

use super::docs::Grammar;
use super::text::{word_at, LineIndex};
use crate::ast::{Direction, Spanned};
use crate::board::game::{Game, Notation};
use crate::diagnostic::{Diagnostic, Severity};
use crate::load::{check_source, Checked, LoadError, Loader, Source};
use crate::source::{FileId, Span};
use crate::syntax::parser::{Rule, RulesParser};

/// Loads what a document extends: open documents first (their unsaved
/// text), then files next to the document, then the bundled games.
pub struct EditorLoader<'a> {
    /// Open documents by path.
    pub open: &'a HashMap<PathBuf, String>,
}

impl Loader for EditorLoader<'_> {
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, LoadError> {
        let base_is_bundled = base.is_some_and(|b| bundled_path_name(Path::new(b)).is_some());
        if !base_is_bundled {
            let dir = base
                .and_then(|b| Path::new(b).parent())
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let mut candidates = vec![dir.join(name)];
            if !name.ends_with(".rules") {
                candidates.push(dir.join(format!("{name}.rules")));
            }
            for c in &candidates {
                if let Some(text) = self.open.get(c) {
                    return Ok(source(c, text.clone()));
                }
                if c.exists() {
                    // The same bounded reader as `rulebook check`: a file
                    // past 1 MiB, a device or a pipe is refused unread.
                    return crate::source::read_text(
                        c,
                        crate::source::MAX_RULE_FILE,
                        "a rule file",
                    )
                    .map(|text| source(c, text))
                    .map_err(LoadError::Read);
                }
            }
        }
        let short = name.strip_suffix(".rules").unwrap_or(name);
        let text = crate::bundled::get(short).ok_or_else(|| {
            LoadError::Loader(Box::new(NoRuleFile {
                name: name.to_string(),
            }))
        })?;
        let path = bundled_file(short).unwrap_or_else(|| PathBuf::from(short));
        Ok(source(&path, text.to_string()))
    }
}

/// No open document or file of the name next to the document, and no
/// bundled game of that name.
#[derive(Debug)]
pub struct NoRuleFile {
    /// The name the document extends.
    pub name: String,
}

impl std::fmt::Display for NoRuleFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no file `{}` next to this one and no bundled game of that name",
            self.name
        )
    }
}

impl std::error::Error for NoRuleFile {}

fn source(path: &Path, text: String) -> Source {
    Source {
        name: path.to_string_lossy().into_owned(),
        text,
    }
}

/// The folder where bundled games are written for the editor to open
/// (read-only copies): a private one (mode 0700) made fresh, exclusively,
/// for this run of the server in the temporary directory, so nobody else
/// can plant a link in it. Made when a bundled file is first wanted;
/// `None` inside if it couldn't be.
static BUNDLED_DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();

/// The folder of bundled copies, made now if it isn't yet.
fn bundled_dir() -> Option<&'static Path> {
    BUNDLED_DIR.get_or_init(make_private_dir).as_deref()
}

/// Removes the folder of bundled copies, if this run made one (when the
/// server stops).
pub fn remove_bundled_dir() {
    if let Some(Some(dir)) = BUNDLED_DIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A new folder only this user may enter: `mkdir` with mode 0700 (which
/// fails, rather than follow, if anything is at the name already), checked
/// to be a real directory afterwards.
fn make_private_dir() -> Option<PathBuf> {
    let base = std::env::temp_dir();
    for attempt in 0..32u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = base.join(format!(
            "rulebook-bundled-{}-{nanos:08x}{attempt}",
            std::process::id()
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        match builder.create(&path) {
            Ok(()) => {
                let meta = std::fs::symlink_metadata(&path).ok()?;
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    if meta.permissions().mode() & 0o077 != 0 {
                        return None;
                    }
                }
                return meta.is_dir().then_some(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(_) => return None,
        }
    }
    None
}

/// The bundled name of a path in `bundled_dir`, if it is one.
fn bundled_path_name(path: &Path) -> Option<String> {
    let made = BUNDLED_DIR.get()?.as_deref()?;
    let rest = path.strip_prefix(made).ok()?;
    let name = rest.to_string_lossy();
    let name = name.strip_suffix(".rules")?;
    crate::bundled::get(name).map(|_| name.to_string())
}

/// A read-only copy of a bundled game on disk, so that go to definition can
/// open it; `None` if it can't be written. The file is made exclusively
/// (never written through a link), once per run.
pub fn bundled_file(name: &str) -> Option<PathBuf> {
    let text = crate::bundled::get(name)?;
    let dir = bundled_dir()?;
    let path = dir.join(format!("{name}.rules"));
    std::fs::create_dir_all(path.parent()?).ok()?;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
    {
        Ok(mut file) => {
            use std::io::Write;
            file.write_all(text.as_bytes()).ok()?;
            let mut perms = file.metadata().ok()?.permissions();
            perms.set_readonly(true);
            let _ = file.set_permissions(perms);
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            // Written earlier in this run; anything else there is refused.
            if !std::fs::symlink_metadata(&path).ok()?.is_file() {
                return None;
            }
        }
        Err(_) => return None,
    }
    Some(path)
}

/// `file:///a/b%20c.rules` -> `/a/b c.rules`.
pub fn uri_to_path(uri: &lt::Uri) -> PathBuf {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://").unwrap_or(s);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes.get(i), bytes.get(i + 1), bytes.get(i + 2)) {
            (Some(b'%'), Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push(((hex(h).unwrap_or(0) << 4) | hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (Some(&b), _, _) => {
                out.push(b);
                i += 1;
            }
            _ => break,
        }
    }
    PathBuf::from(String::from_utf8_lossy(&out).into_owned())
}

/// `/a/b c.rules` -> `file:///a/b%20c.rules`.
pub fn path_to_uri(path: &Path) -> Option<lt::Uri> {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s.parse().ok()
}

/// Checks a document's text as `rulebook check` would (no options given).
pub fn check(path: &Path, text: &str, open: &HashMap<PathBuf, String>) -> Checked {
    let loader = EditorLoader { open };
    check_source(source(path, text.to_string()), &loader, &[])
}

/// The library's diagnostics as the protocol's: the same codes, messages,
/// places and hints; labels elsewhere (other lines, the file extended)
/// become related information.
pub fn lsp_diagnostics(checked: &Checked, text: &str) -> Vec<lt::Diagnostic> {
    let index = LineIndex::new(text);
    let location = |span: Span| -> Option<lt::Location> {
        let file = checked.sources.get(span.file)?;
        let uri = path_to_uri(Path::new(&file.name))?;
        let range = LineIndex::new(&file.text).range(span.begin as usize, span.end as usize);
        Some(lt::Location::new(uri, range))
    };
    checked
        .diagnostics
        .iter()
        .map(|d| {
            let here = d
                .primary_span()
                .filter(|s| s.file == FileId(0))
                .or_else(|| {
                    d.labels
                        .iter()
                        .find(|l| l.span.file == FileId(0))
                        .map(|l| l.span)
                });
            let range = here.map_or_else(
                || lt::Range::new(lt::Position::new(0, 0), lt::Position::new(0, 0)),
                |s| index.range(s.begin as usize, s.end as usize),
            );
            let related: Vec<lt::DiagnosticRelatedInformation> = d
                .labels
                .iter()
                .filter(|l| Some(l.span) != here)
                .filter_map(|l| {
                    Some(lt::DiagnosticRelatedInformation {
                        location: location(l.span)?,
                        message: if l.text.is_empty() {
                            d.message.clone()
                        } else {
                            l.text.clone()
                        },
                    })
                })
                .collect();
            lt::Diagnostic {
                range,
                severity: Some(match d.severity {
                    Severity::Error => lt::DiagnosticSeverity::ERROR,
                    Severity::Warning => lt::DiagnosticSeverity::WARNING,
                }),
                code: Some(lt::NumberOrString::String(d.code.as_str().to_string())),
                source: Some("rulebook".to_string()),
                message: message_of(d),
                related_information: (!related.is_empty()).then_some(related),
                ..lt::Diagnostic::default()
            }
        })
        .collect()
}

/// The message with its primary label and hint, as `check` shows them.
fn message_of(d: &Diagnostic) -> String {
    let mut m = d.message.clone();
    if let Some(label) = d.labels.iter().find(|l| l.primary) {
        if !label.text.is_empty() {
            m.push_str(&format!(": {}", label.text));
        }
    }
    if let Some(help) = &d.help {
        m.push_str(&format!("\nhelp: {help}"));
    }
    m
}

/// A leaf of the parse tree.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// Its rule.
    pub rule: Rule,
    /// The rule of the statement it is in.
    pub statement: Rule,
    /// The rule of the construct it is a word of (its statement, or a part
    /// of one such as an end rule or a draw counter's event), and that
    /// construct's bytes.
    pub parent: (Rule, usize, usize),
    /// Its text.
    pub text: String,
    /// Bytes.
    pub start: usize,
    /// One past.
    pub end: usize,
}

/// A name defined in a file.
#[derive(Clone, Debug)]
pub struct Definition {
    /// What it names: `zone`, `piece`, `side`, `direction set`, `option`, `seat`.
    pub what: &'static str,
    /// The name.
    pub name: String,
    /// The name's bytes.
    pub start: usize,
    /// One past.
    pub end: usize,
    /// The whole statement's bytes (for the outline and hover).
    pub statement: (usize, usize),
}

/// The parse of a possibly half-typed file: lines that stop the parse are
/// blanked out (offsets stay) until the rest parses.
pub struct Outline {
    /// Statements: rule, span, and for a block statement its inner ones.
    pub statements: Vec<Stmt>,
    /// Every leaf.
    pub leaves: Vec<Leaf>,
    /// Every definition.
    pub definitions: Vec<Definition>,
}

/// A statement of the outline.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// Its rule.
    pub rule: Rule,
    /// Bytes.
    pub start: usize,
    /// One past.
    pub end: usize,
    /// Statements of its block.
    pub children: Vec<Stmt>,
}

/// The bytes the parses of one outline may read in all (docs/limits.md):
/// 64 tries on a small file, fewer on a large one, so that no request
/// waits on them.
pub const OUTLINE_BUDGET: usize = 4 << 20;

/// Reads the names and statements of a text, tolerating syntax errors: at
/// most 64 lines are blanked, and no more than [`OUTLINE_BUDGET`] bytes
/// parsed; past that the outline is empty.
pub fn outline(text: &str) -> Outline {
    crate::syntax::parse_blanking(text, 64, OUTLINE_BUDGET, |_, mut pairs| {
        let mut out = Outline {
            statements: Vec::new(),
            leaves: Vec::new(),
            definitions: Vec::new(),
        };
        if let Some(file) = pairs.next() {
            for p in file.into_inner().filter(|p| p.as_rule() != Rule::EOI) {
                let s = walk(p, &mut out);
                out.statements.push(s);
            }
        }
        out
    })
    .unwrap_or_else(|| Outline {
        statements: Vec::new(),
        leaves: Vec::new(),
        definitions: Vec::new(),
    })
}

fn walk(pair: Pair<'_, Rule>, out: &mut Outline) -> Stmt {
    let rule = pair.as_rule();
    let span = pair.as_span();
    let mut stmt = Stmt {
        rule,
        start: span.start(),
        end: span.end(),
        children: Vec::new(),
    };
    let what = match rule {
        Rule::side_stmt => Some("side"),
        Rule::zone_stmt => Some("zone"),
        Rule::piece_stmt => Some("piece"),
        Rule::directions_stmt => Some("direction set"),
        Rule::option_stmt => Some("option"),
        _ => None,
    };
    let mut in_block = false;
    let mut first_name = true;
    let parent = (rule, stmt.start, stmt.end);
    for child in pair.into_inner() {
        match child.as_rule() {
            Rule::open_brace => {
                in_block = true;
                leaf(child, rule, parent, out);
            }
            Rule::close_brace => {
                in_block = false;
                leaf(child, rule, parent, out);
            }
            _ if in_block => {
                let s = walk(child, out);
                stmt.children.push(s);
            }
            Rule::name if (what.is_some() && first_name) || rule == Rule::seats_stmt => {
                first_name = false;
                let s = child.as_span();
                out.definitions.push(Definition {
                    what: what.unwrap_or("seat"),
                    name: s.as_str().to_string(),
                    start: s.start(),
                    end: s.end(),
                    statement: (stmt.start, stmt.end),
                });
                leaf(child, rule, parent, out);
            }
            _ => leaf(child, rule, parent, out),
        }
    }
    stmt
}

fn leaf(pair: Pair<'_, Rule>, in_statement: Rule, parent: (Rule, usize, usize), out: &mut Outline) {
    let rule = pair.as_rule();
    if rule == Rule::string || pair.clone().into_inner().next().is_none() {
        let s = pair.as_span();
        out.leaves.push(Leaf {
            rule,
            statement: in_statement,
            parent,
            text: s.as_str().to_string(),
            start: s.start(),
            end: s.end(),
        });
    } else {
        let s = pair.as_span();
        let parent = (rule, s.start(), s.end());
        for child in pair.into_inner() {
            leaf(child, in_statement, parent, out);
        }
    }
}

/// A file of the `extends` chain: its path and text.
pub struct ChainFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// The files a document extends, nearest first (not the document itself).
pub fn chain(path: &Path, text: &str, open: &HashMap<PathBuf, String>) -> Vec<ChainFile> {
    let loader = EditorLoader { open };
    let mut out: Vec<ChainFile> = Vec::new();
    let mut current = (path.to_path_buf(), text.to_string());
    for _ in 0..16 {
        let o = outline(&current.1);
        let Some(target) = o
            .leaves
            .iter()
            .find(|l| l.statement == Rule::extends_stmt && l.rule == Rule::string)
        else {
            break;
        };
        let name = target.text.trim_matches('"').to_string();
        let Ok(src) = loader.load(&name, Some(&current.0.to_string_lossy())) else {
            break;
        };
        let p = PathBuf::from(&src.name);
        if p == path || out.iter().any(|f| f.path == p) {
            break;
        }
        out.push(ChainFile {
            path: p.clone(),
            text: src.text.clone(),
        });
        current = (p, src.text);
    }
    out
}

/// Everything the server needs to answer about one document.
pub struct Context<'a> {
    /// Its path.
    pub path: &'a Path,
    /// Its text.
    pub text: &'a str,
    /// Its outline.
    pub outline: &'a Outline,
    /// What it extends, with outlines.
    pub chain: &'a [(ChainFile, Outline)],
    /// The last game it compiled to (kept while it has errors).
    pub game: Option<&'a Game>,
    /// The grammar's documentation.
    pub grammar: &'a Grammar,
}

/// Built-in directions: name -> what it means.
fn builtin_direction(word: &str) -> Option<String> {
    use crate::check::directions::{ABSOLUTE, RELATIVE, SETS};
    if let Some((_, (dx, dy))) = ABSOLUTE.iter().find(|(n, _)| *n == word) {
        return Some(format!(
            "the absolute direction `{word}`: the vector ({dx}, {dy})"
        ));
    }
    if RELATIVE.contains(&word) {
        return Some(format!(
            "the relative direction `{word}`: turned to each side's `forward`"
        ));
    }
    if let Some((_, members)) = SETS.iter().find(|(n, _)| *n == word) {
        return Some(format!("the built-in set `{word}` = {}", members.join(" ")));
    }
    None
}

/// Every built-in direction and set name.
pub fn builtin_directions() -> Vec<&'static str> {
    use crate::check::directions::{ABSOLUTE, RELATIVE, SETS};
    ABSOLUTE
        .iter()
        .map(|(n, _)| *n)
        .chain(RELATIVE)
        .chain(SETS.iter().map(|(n, _)| *n))
        .collect()
}

fn square_name(game: &Game, sq: crate::board::game::Sq) -> String {
    game.squares
        .get(usize::from(sq.0))
        .map_or_else(String::new, |s| {
            if game.notation == Notation::Numeric {
                s.number.to_string()
            } else {
                s.algebraic.clone()
            }
        })
}

fn vector_name(v: (i8, i8)) -> String {
    use crate::check::directions::ABSOLUTE;
    ABSOLUTE
        .iter()
        .find(|(_, w)| *w == v)
        .map_or_else(|| format!("({}, {})", v.0, v.1), |(n, _)| (*n).to_string())
}

impl Context<'_> {
    /// Every definition in scope: the document's, then those inherited.
    pub fn definitions(&self) -> Vec<(Option<&ChainFile>, &Definition)> {
        self.outline
            .definitions
            .iter()
            .map(|d| (None, d))
            .chain(
                self.chain
                    .iter()
                    .flat_map(|(f, o)| o.definitions.iter().map(move |d| (Some(f), d))),
            )
            .collect()
    }

    /// What a defined name resolves to, from the compiled game.
    fn resolution(&self, d: &Definition) -> Option<String> {
        let game = self.game?;
        match d.what {
            "zone" => {
                let zone = game.zones.iter().find(|z| z.id == d.name)?;
                let list = |set: &crate::board::game::SquareSet| {
                    set.iter()
                        .map(|sq| square_name(game, sq))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let lines: Vec<String> = if zone.per_side {
                    game.sides
                        .iter()
                        .zip(&zone.squares)
                        .map(|(s, set)| format!("- for `{}`: {}", s.id, list(set)))
                        .collect()
                } else {
                    zone.squares
                        .first()
                        .map(|s| format!("- {}", list(s)))
                        .into_iter()
                        .collect()
                };
                Some(format!("squares:\n{}", lines.join("\n")))
            }
            "side" => {
                let side = game.sides.iter().find(|s| s.id == d.name)?;
                Some(format!(
                    "\"{}\", letter `{}`, forward = {}",
                    side.name,
                    side.letter,
                    vector_name(side.forward)
                ))
            }
            "piece" => {
                let kind = game.kinds.iter().find(|k| k.id == d.name)?;
                Some(format!(
                    "\"{}\", letter `{}`, value {}",
                    kind.name, kind.letter, kind.value
                ))
            }
            "direction set" => {
                let mut diags = Vec::new();
                let mut sources = crate::source::SourceMap::new();
                let open = HashMap::new();
                let loader = EditorLoader { open: &open };
                let files = crate::check::extends::load_chain(
                    source(self.path, self.text.to_string()),
                    &loader,
                    &mut sources,
                    &mut diags,
                )?;
                let merged = crate::check::merge::merge(&files, &[], &mut diags);
                let dirs = crate::check::directions::Directions::new(&merged, &mut diags);
                let named = [Spanned::new(
                    Direction::Named(d.name.clone()),
                    Span::default(),
                )];
                let lines: Vec<String> = game
                    .sides
                    .iter()
                    .map(|s| {
                        let v: Vec<String> = dirs
                            .resolve(&named, s.forward)
                            .into_iter()
                            .map(vector_name)
                            .collect();
                        format!("- for `{}`: {}", s.id, v.join(" "))
                    })
                    .collect();
                Some(format!("resolves to:\n{}", lines.join("\n")))
            }
            _ => None,
        }
    }

    /// Hover text (markdown) at byte `offset`.
    pub fn hover(&self, offset: usize) -> Option<(String, (usize, usize))> {
        let (begin, end, word) = word_at(self.text, offset)?;
        let in_string = self
            .outline
            .leaves
            .iter()
            .find(|l| l.rule == Rule::string && l.start < offset && offset < l.end);
        if let Some(s) = in_string {
            if s.statement == Rule::extends_stmt {
                let target = self.chain.first()?;
                let title = target
                    .1
                    .leaves
                    .iter()
                    .find(|l| l.statement == Rule::game_stmt && l.rule == Rule::string)
                    .map_or(String::new(), |l| format!(" {}", l.text));
                return Some((
                    format!(
                        "**extends**{title}\n\n`{}`\n\nThis file starts from that one: its statements first, then these.",
                        target.0.path.display()
                    ),
                    (s.start, s.end),
                ));
            }
            return None;
        }
        let defs = self.definitions();
        if let Some((file, d)) = defs.iter().find(|(_, d)| d.name == word) {
            let text = file.map_or(self.text, |f| f.text.as_str());
            let stmt = text.get(d.statement.0..d.statement.1).unwrap_or("");
            let first_line = stmt.lines().next().unwrap_or("").trim_end();
            let mut md = format!(
                "**{}** `{}`\n\n```rulebook\n{first_line}\n```",
                d.what, d.name
            );
            if let Some(f) = file {
                md.push_str(&format!("\n\ninherited from `{}`", f.path.display()));
            }
            if let Some(r) = self.resolution(d) {
                md.push_str(&format!("\n\n{r}"));
            }
            return Some((md, (begin, end)));
        }
        let on_leaf = self
            .outline
            .leaves
            .iter()
            .find(|l| l.start <= begin && end <= l.end);
        let is_direction = on_leaf.is_some_and(|l| l.rule == Rule::dir_name);
        if is_direction || self.grammar.keyword_rules(word).is_empty() {
            if let Some(text) = builtin_direction(word) {
                return Some((text, (begin, end)));
            }
        }
        if let Some(md) = on_leaf.and_then(|l| self.keyword_in_context(l)) {
            return Some((md, (begin, end)));
        }
        let docs = self.grammar.keyword_docs(word);
        if docs.is_empty() {
            return None;
        }
        let mut md = format!("**`{word}`**");
        for r in docs {
            md.push_str(&format!("\n\n{}", r.doc));
        }
        Some((md, (begin, end)))
    }

    /// What a keyword means where it stands: the doc comment of the
    /// construct it is a word of (`capture optional`, the event of a draw
    /// rule), narrowed to the line of the form written when the doc lists
    /// its forms. `None` for a word that is no keyword.
    fn keyword_in_context(&self, leaf: &Leaf) -> Option<String> {
        if !format!("{:?}", leaf.rule).starts_with("kw_") {
            return None;
        }
        let (rule, start, end) = leaf.parent;
        let doc = self.grammar.documented(&format!("{rule:?}"))?;
        let words: Vec<&str> = self
            .outline
            .leaves
            .iter()
            .filter(|l| l.start >= start && l.end <= end && l.statement == leaf.statement)
            .take_while(|l| l.rule != Rule::open_brace)
            .map(|l| l.text.as_str())
            .collect();
        let written = words.join(" ");
        let form = doc
            .forms
            .iter()
            .filter_map(|line| Some((form_words(line)?, line)))
            .filter(|(form, _)| fits(form, &words))
            .max_by_key(|(form, _)| form.len())
            .map(|(_, line)| line);
        let meaning = match form {
            Some(line) => format!("{}\n\n{line}", doc.doc),
            None if doc.forms.is_empty() => doc.doc.clone(),
            None => format!("{}\n\n- {}", doc.doc, doc.forms.join("\n- ")),
        };
        Some(format!(
            "**`{}`**\n\n{meaning}",
            crate::shown::shown(&written)
        ))
    }

    /// The definition of the name at `offset`: path and byte range.
    pub fn definition(&self, offset: usize) -> Option<(PathBuf, String, (usize, usize))> {
        let extends = self.outline.leaves.iter().find(|l| {
            l.rule == Rule::string
                && l.statement == Rule::extends_stmt
                && l.start <= offset
                && offset <= l.end
        });
        if extends.is_some() {
            let target = self.chain.first()?;
            return Some((target.0.path.clone(), target.0.text.clone(), (0, 0)));
        }
        let (_, _, word) = word_at(self.text, offset)?;
        let defs = self.definitions();
        let (file, d) = defs.iter().find(|(_, d)| d.name == word)?;
        Some(match file {
            None => (
                self.path.to_path_buf(),
                self.text.to_string(),
                (d.start, d.end),
            ),
            Some(f) => (f.path.clone(), f.text.clone(), (d.start, d.end)),
        })
    }

    /// Every use and definition, in this document, of the name at `offset`.
    pub fn references(&self, offset: usize) -> Vec<(usize, usize)> {
        let Some((_, _, word)) = word_at(self.text, offset) else {
            return Vec::new();
        };
        if !self.definitions().iter().any(|(_, d)| d.name == word) {
            return Vec::new();
        }
        self.outline
            .leaves
            .iter()
            .filter(|l| matches!(l.rule, Rule::name | Rule::dir_name) && l.text == word)
            .map(|l| (l.start, l.end))
            .collect()
    }

    /// Completions at byte `offset`: label, kind, detail.
    pub fn completions(&self, offset: usize) -> Vec<(String, lt::CompletionItemKind, String)> {
        let offset = offset.min(self.text.len());
        let mut word_start = offset;
        while word_start > 0
            && self
                .text
                .get(..word_start)
                .and_then(|s| s.chars().next_back())
                .is_some_and(super::text::is_word_char)
        {
            word_start -= self
                .text
                .get(..word_start)
                .and_then(|s| s.chars().next_back())
                .map_or(1, char::len_utf8);
        }
        let prefix = self.text.get(..word_start).unwrap_or("");
        let in_quote = prefix.matches('"').count() % 2 == 1;
        let previous = previous_word(prefix);
        let mut out = Vec::new();
        if previous == "extends"
            || (in_quote && previous_word(prefix.trim_end_matches('"')) == "extends")
        {
            for (name, _) in crate::bundled::GAMES {
                let label = if in_quote {
                    name.to_string()
                } else {
                    format!("\"{name}\"")
                };
                out.push((
                    label,
                    lt::CompletionItemKind::FILE,
                    "bundled game".to_string(),
                ));
            }
            return out;
        }
        if in_quote {
            return out;
        }
        let positives = expected_at(prefix);
        let mut push = |label: String, kind, detail: String| {
            if !out.iter().any(|(l, _, _)| *l == label) {
                out.push((label, kind, detail));
            }
        };
        let mut wants_name = false;
        let mut wants_dir = false;
        let mut wants_square = false;
        let tokens: Vec<String> = positives
            .iter()
            .flat_map(|rule| self.grammar.first_tokens(&format!("{rule:?}")))
            .collect();
        for token in &tokens {
            if let Some(word) = self.grammar.keywords.get(token) {
                push(
                    word.clone(),
                    lt::CompletionItemKind::KEYWORD,
                    "keyword".to_string(),
                );
            }
            match token.as_str() {
                "name" => wants_name = true,
                "dir_name" => wants_dir = true,
                "algebraic_square" | "numeric_square" => wants_square = true,
                _ => {}
            }
        }
        let wanted: &[&str] = match previous.as_str() {
            "at" | "reach" | "enemy" | "any" => &["zone"],
            "setup" => &["side", "piece"],
            "first" => &["side"],
            "to" | "by" | "promote" | "most" | "fewest" | "earliest" | "move-of" => &["piece"],
            "when" => &["option"],
            _ => &[],
        };
        if wants_name || wants_dir {
            for (_, d) in self.definitions() {
                let fits = if wants_dir && !wants_name {
                    d.what == "direction set"
                } else {
                    wanted.is_empty() || wanted.contains(&d.what)
                };
                if fits && d.what != "seat" {
                    push(
                        d.name.clone(),
                        lt::CompletionItemKind::VARIABLE,
                        d.what.to_string(),
                    );
                }
            }
        }
        if wants_dir {
            for name in builtin_directions() {
                push(
                    name.to_string(),
                    lt::CompletionItemKind::ENUM_MEMBER,
                    "direction".to_string(),
                );
            }
        }
        if wants_square {
            if let Some(game) = self.game {
                for (i, s) in game.squares.iter().enumerate() {
                    let _ = s;
                    let sq = crate::board::game::Sq(u16::try_from(i).unwrap_or(u16::MAX));
                    push(
                        square_name(game, sq),
                        lt::CompletionItemKind::VALUE,
                        "square".to_string(),
                    );
                }
            }
        }
        out
    }

    /// The outline: name, kind, byte range, children.
    pub fn symbols(&self) -> Vec<lt::DocumentSymbol> {
        let index = LineIndex::new(self.text);
        self.outline
            .statements
            .iter()
            .map(|s| self.symbol(s, &index))
            .collect()
    }

    fn symbol(&self, s: &Stmt, index: &LineIndex<'_>) -> lt::DocumentSymbol {
        let def = self
            .outline
            .definitions
            .iter()
            .find(|d| d.statement == (s.start, s.end));
        let text = self.text.get(s.start..s.end).unwrap_or("");
        let line = text.lines().next().unwrap_or("").trim();
        let line = line
            .split("//")
            .next()
            .unwrap_or(line)
            .trim()
            .trim_end_matches('{')
            .trim();
        let kind = match s.rule {
            Rule::piece_stmt => lt::SymbolKind::CLASS,
            Rule::zone_stmt => lt::SymbolKind::ENUM,
            Rule::side_stmt => lt::SymbolKind::CONSTANT,
            Rule::directions_stmt => lt::SymbolKind::ENUM_MEMBER,
            Rule::option_stmt | Rule::when_stmt => lt::SymbolKind::NAMESPACE,
            _ => lt::SymbolKind::PROPERTY,
        };
        let (name, detail, selection) = match def {
            Some(d) => (
                d.name.clone(),
                Some(d.what.to_string()),
                index.range(d.start, d.end),
            ),
            None => (line.to_string(), None, index.range(s.start, s.start)),
        };
        let children: Vec<lt::DocumentSymbol> =
            s.children.iter().map(|c| self.symbol(c, index)).collect();
        #[allow(deprecated)]
        lt::DocumentSymbol {
            name: if name.is_empty() {
                "statement".to_string()
            } else {
                name
            },
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: index.range(s.start, s.end),
            selection_range: selection,
            children: (!children.is_empty()).then_some(children),
        }
    }
}

/// The word before the end of `prefix` (skipping spaces and comments on
/// the same line).
fn previous_word(prefix: &str) -> String {
    let trimmed = prefix.trim_end();
    let start = trimmed
        .char_indices()
        .rev()
        .take_while(|(_, c)| super::text::is_word_char(*c))
        .last()
        .map_or(trimmed.len(), |(i, _)| i);
    trimmed.get(start..).unwrap_or("").to_string()
}

/// The grammar rules that may come at the end of `prefix` (what the
/// parser expected there).
pub fn expected_at(prefix: &str) -> Vec<Rule> {
    let probe = format!("{prefix}\u{1}");
    let at_end = |e: &pest::error::Error<Rule>| {
        let pos = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((p, _)) => p,
        };
        pos >= prefix.len()
    };
    match RulesParser::parse(Rule::file, &probe) {
        Err(e) if at_end(&e) => match e.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } => positives,
            pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
        },
        // An error earlier: offer what may start a statement.
        _ => match RulesParser::parse(Rule::file, "\u{1}") {
            Err(e) => match e.variant {
                pest::error::ErrorVariant::ParsingError { positives, .. } => positives,
                pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
            },
            Ok(_) => Vec::new(),
        },
    }
}

/// The words of the form a doc line starts with: `` `capture optional`: ``
/// gives `capture`, `optional`; `None` for a line that names no form.
fn form_words(line: &str) -> Option<Vec<&str>> {
    let rest = line.strip_prefix('`')?;
    let (form, _) = rest.split_once("`:")?;
    Some(form.split_whitespace().collect())
}

/// Whether the words written start with the form: each word of the form is
/// the word written, one of its `a|b` alternatives, or an upper-case
/// placeholder (`KIND`) for any word.
fn fits(form: &[&str], written: &[&str]) -> bool {
    form.len() <= written.len()
        && form.iter().zip(written).all(|(f, w)| {
            f == w
                || f.split('|').any(|alt| alt == *w)
                || f.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        })
}
