-- Configuration of the pgn-lsp language server for Neovim 0.11+
-- (`vim.lsp.enable('pgn_lsp')`). Older Neovim versions read the same table
-- through lua/pgn_lsp/init.lua. vim.g.pgn_lsp_cmd / vim.g.pgn_lsp_init_options
-- override the command and the initializationOptions. :PgnBoard (the live
-- board) is defined for attached buffers when lua/pgn_lsp/board.lua is on
-- 'runtimepath' (the plugin also defines it everywhere).
return {
  cmd = vim.g.pgn_lsp_cmd or { 'pgn-lsp' },
  filetypes = { 'pgn' },
  root_markers = { '.git' },
  init_options = vim.g.pgn_lsp_init_options,
  on_attach = function(_, bufnr)
    local ok, board = pcall(require, 'pgn_lsp.board')
    if ok then
      board.define_command(bufnr)
    end
  end,
}
