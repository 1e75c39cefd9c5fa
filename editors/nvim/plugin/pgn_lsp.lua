-- Starts pgn-lsp for `pgn` buffers.
-- Neovim 0.11+: enables the `lsp/pgn_lsp.lua` configuration with
-- vim.lsp.enable (idempotent, so a user's own vim.lsp.enable('pgn_lsp') does
-- not start a second server). Older versions: ftplugin/pgn.lua starts the
-- client through lua/pgn_lsp/init.lua.
-- Set `vim.g.pgn_lsp_autostart = false` to start nothing automatically.
-- Defines :PgnBoard, the live board (lua/pgn_lsp/board.lua).
if vim.g.loaded_pgn_lsp then
  return
end
vim.g.loaded_pgn_lsp = true

if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { pgn = 'pgn', PGN = 'pgn' } })
end

require('pgn_lsp.board').define_command()

if require('pgn_lsp').has_lsp_enable() and vim.g.pgn_lsp_autostart ~= false then
  vim.lsp.enable('pgn_lsp')
end
