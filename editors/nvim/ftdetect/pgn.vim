" Neovim does not know *.pgn files: mark them as chess Portable Game Notation.
autocmd BufNewFile,BufRead *.pgn,*.PGN setfiletype pgn
