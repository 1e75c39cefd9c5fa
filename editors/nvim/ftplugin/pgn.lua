-- Buffer settings for PGN files: comment string, starting the language
-- server on Neovim < 0.11, and formatting on save.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

vim.bo.commentstring = '; %s'
vim.b.undo_ftplugin = 'setlocal commentstring<'

local pgn_lsp = require('pgn_lsp')
local bufnr = vim.api.nvim_get_current_buf()
pgn_lsp.start(bufnr)
pgn_lsp.format_on_save(bufnr)
