-- Configuration of the pgn-lsp language server for Neovim 0.11+
-- (`vim.lsp.enable('pgn_lsp')`). Older Neovim versions read the same table
-- through lua/pgn_lsp/init.lua. vim.g.pgn_lsp_cmd / vim.g.pgn_lsp_init_options
-- override the command and the initializationOptions.
return {
  cmd = vim.g.pgn_lsp_cmd or { 'pgn-lsp' },
  filetypes = { 'pgn' },
  root_markers = { '.git' },
  init_options = vim.g.pgn_lsp_init_options,
}
