-- pgn-lsp client glue: starts the server on Neovim 0.7 to 0.10 (0.11+ uses
-- lsp/pgn_lsp.lua through vim.lsp.enable, see plugin/pgn_lsp.lua) and formats
-- PGN buffers on save on every version.
--
-- Options (global variables, all optional):
--   vim.g.pgn_lsp_cmd               command list, default { 'pgn-lsp' }
--   vim.g.pgn_lsp_autostart         false: never start the server automatically
--   vim.g.pgn_lsp_format_on_save    false: do not format on :write
--   vim.g.pgn_lsp_format_timeout_ms formatting timeout on save, default 3000
--   vim.g.pgn_lsp_init_options      initializationOptions sent to the server
local M = {}

local NAME = 'pgn_lsp'

--- True on Neovim 0.11+, where vim.lsp.config/vim.lsp.enable exist.
function M.has_lsp_enable()
  return type(vim.lsp.enable) == 'function' and vim.lsp.config ~= nil
end

--- The table returned by lsp/pgn_lsp.lua (found on 'runtimepath').
local function base_config()
  local file = vim.api.nvim_get_runtime_file('lsp/pgn_lsp.lua', false)[1]
  if file then
    local ok, config = pcall(dofile, file)
    if ok and type(config) == 'table' then
      return config
    end
  end
  return { cmd = { 'pgn-lsp' }, filetypes = { 'pgn' }, root_markers = { '.git' } }
end

--- Nearest ancestor directory of the buffer's file holding a root marker,
--- else the file's directory.
local function root_dir(bufnr, markers)
  local uv = vim.uv or vim.loop
  local name = vim.api.nvim_buf_get_name(bufnr)
  local start = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local dir = start
  while true do
    for _, marker in ipairs(markers or {}) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return start
    end
    dir = parent
  end
end

--- pgn-lsp clients attached to a buffer.
function M.clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = NAME })
  end
  local list = {}
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == NAME then
      table.insert(list, client)
    end
  end
  return list
end

local warned_missing = false
local client_by_root = {} -- Neovim 0.7: client id per root directory

--- Starts (or reuses) the server for a buffer on Neovim < 0.11.
function M.start(bufnr)
  if M.has_lsp_enable() or vim.g.pgn_lsp_autostart == false then
    return
  end
  if vim.bo[bufnr].buftype ~= '' then
    return
  end
  local base = base_config()
  local cmd = base.cmd
  if vim.fn.executable(cmd[1]) ~= 1 then
    if not warned_missing then
      warned_missing = true
      local msg = ('pgn-lsp: `%s` is not executable or not on PATH. Install the server with '
        .. '`cargo install --path .` from the pgn-lsp repository, or set vim.g.pgn_lsp_cmd.'):format(cmd[1])
      vim.schedule(function()
        vim.notify(msg, vim.log.levels.ERROR)
      end)
    end
    return
  end
  local config = {
    name = NAME,
    cmd = cmd,
    root_dir = root_dir(bufnr, base.root_markers),
    init_options = base.init_options,
  }
  if vim.lsp.start then
    -- Neovim 0.8 to 0.10: reuses a running client with the same name and root.
    vim.api.nvim_buf_call(bufnr, function()
      vim.lsp.start(config)
    end)
  else
    -- Neovim 0.7.
    local id = client_by_root[config.root_dir]
    if not (id and vim.lsp.get_client_by_id(id)) then
      id = vim.lsp.start_client(config)
      client_by_root[config.root_dir] = id
    end
    if id then
      vim.lsp.buf_attach_client(bufnr, id)
    end
  end
end

--- Formats the buffer with pgn-lsp before each :write.
function M.format_on_save(bufnr)
  if vim.g.pgn_lsp_format_on_save == false then
    return
  end
  local group = vim.api.nvim_create_augroup('pgn_lsp_format_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd('BufWritePre', {
    group = group,
    buffer = bufnr,
    desc = 'Format PGN with pgn-lsp',
    callback = function()
      if vim.g.pgn_lsp_format_on_save == false or #M.clients(bufnr) == 0 then
        return
      end
      local timeout = vim.g.pgn_lsp_format_timeout_ms or 3000
      if vim.lsp.buf.format then
        vim.lsp.buf.format({ bufnr = bufnr, name = NAME, timeout_ms = timeout })
      else
        vim.lsp.buf.formatting_sync(nil, timeout)
      end
    end,
  })
end

return M
