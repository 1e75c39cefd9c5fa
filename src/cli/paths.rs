//! The files a command reads. Each argument is a file (taken whatever its name), `-` (standard
//! input) or a directory, which stands for the PGN files in it and in its subdirectories:
//! those whose names end in `.pgn` in any case, in the order of their names, leaving out what
//! ripgrep leaves out (hidden files and directories, and what `.gitignore` files in a Git
//! repository and `.ignore` files say), so that `pgn-lsp check .` at the root of a repository
//! reads its games and not its build output or dependencies.

use std::path::Path;

/// The files `arguments` stand for, in order, each a path or a message saying why an argument
/// gave none (a directory that cannot be read or holds no PGN file).
pub fn expand(arguments: &[String]) -> Vec<Result<String, String>> {
    let mut files = Vec::new();
    for argument in arguments {
        if argument != "-" && Path::new(argument).is_dir() {
            let before = files.len();
            pgn_files_in(argument, &mut files);
            if files.len() == before {
                files.push(Err(format!("no PGN files in {argument}")));
            }
        } else {
            files.push(Ok(argument.clone()));
        }
    }
    files
}

/// Push the PGN files of `directory` and its subdirectories onto `files`, and a message for
/// each entry that cannot be read.
fn pgn_files_in(directory: &str, files: &mut Vec<Result<String, String>>) {
    for entry in ignore::WalkBuilder::new(directory).sort_by_file_name(Ord::cmp).build() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                // The error names the path it met: "DIR: Permission denied (os error 13)".
                files.push(Err(format!("cannot read {e}")));
                continue;
            }
        };
        let is_pgn = entry.path().extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        if !is_pgn || !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        files.push(match entry.into_path().into_os_string().into_string() {
            Ok(path) => Ok(path),
            Err(path) => {
                Err(format!("cannot read {}: its name is not UTF-8", Path::new(&path).display()))
            }
        });
    }
}
