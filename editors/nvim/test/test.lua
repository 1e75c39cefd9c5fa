-- Headless end-to-end test of editors/nvim, run by test/run.sh inside
-- `nvim --headless --clean` with the plugin folder on 'runtimepath'.
-- Works on copies of editors/fixtures/*.pgn in $PGN_TEST_DIR and writes
-- "ok" or "FAIL: <reason>" to $PGN_TEST_DIR/result, then quits with :qa!
-- (so the LSP client shuts the server down the normal way).
local dir = assert(os.getenv('PGN_TEST_DIR'), 'PGN_TEST_DIR is not set')
local timeout = tonumber(os.getenv('PGN_TEST_TIMEOUT_MS') or '') or 20000
local pgn_lsp = require('pgn_lsp')

local EXPECTED_FEN = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'
-- messy.pgn's moves, formatted at the line width of 20 that run.sh gives the server in
-- vim.g.pgn_lsp_init_options.
local EXPECTED_MOVETEXT = '1. e4 e5 2. Nf3 Nc6\n*'

local function say(msg)
  io.stdout:write(msg .. '\n')
  io.stdout:flush()
end

local function fail(msg)
  error(msg, 0)
end

local function server_state(bufnr)
  local clients = pgn_lsp.clients(bufnr)
  if #clients == 0 then
    return nil
  end
  return clients[1]
end

-- The server pids recorded by run.sh's wrapper, and whether all have exited.
local function server_exited()
  local uv = vim.uv or vim.loop
  local pids = vim.fn.filereadable(dir .. '/server.pids') == 1 and vim.fn.readfile(dir .. '/server.pids') or {}
  if #pids == 0 then
    return false
  end
  for _, pid in ipairs(pids) do
    if uv.kill(tonumber(pid), 0) == 0 then
      return false
    end
  end
  return true
end

-- Waits for cond(), failing early if the pgn-lsp server process exits.
local function wait_for(what, bufnr, cond)
  local exited = false
  local ok = vim.wait(timeout, function()
    if cond() then
      return true
    end
    local client = server_state(bufnr)
    exited = (client and client.is_stopped and client.is_stopped()) or server_exited()
    return exited
  end, 50)
  if exited then
    fail('the pgn-lsp server exited while waiting for ' .. what .. ' (does it speak LSP on stdio with --stdio?)')
  end
  if not ok then
    fail(('timed out after %d ms waiting for %s'):format(timeout, what))
  end
end

local function find_in_buffer(bufnr, needle)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return row - 1, col - 1
    end
  end
  fail(('"%s" not found in buffer %d'):format(needle, bufnr))
end

local function hover_text(contents)
  if type(contents) == 'string' then
    return contents
  end
  if type(contents) ~= 'table' then
    return ''
  end
  if contents.value then -- MarkupContent or { language, value }
    return contents.value
  end
  local parts = {}
  for _, item in ipairs(contents) do
    table.insert(parts, hover_text(item))
  end
  return table.concat(parts, '\n')
end

-- The responses to a request, failing on an error.
local function request(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
  if not responses then
    fail(method .. ' failed: ' .. tostring(err))
  end
  for _, response in pairs(responses) do
    if response.err then
      fail(method .. ' error: ' .. vim.inspect(response.err))
    end
  end
  return responses
end

local function open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/' .. name))
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].filetype ~= 'pgn' then
    fail(('%s: filetype is "%s", expected "pgn"'):format(name, vim.bo[bufnr].filetype))
  end
  if vim.bo[bufnr].commentstring ~= '; %s' then
    fail(('%s: commentstring is "%s", expected "; %%s"'):format(name, vim.bo[bufnr].commentstring))
  end
  return bufnr
end

-- The live board: :PgnBoard opens a floating window showing the position
-- after the move under the cursor, and follows the cursor until closed.
local EXPECTED_FEN_AFTER_NC6 = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'

local function board_text()
  local win = require('pgn_lsp.board').window()
  if not (win and vim.api.nvim_win_is_valid(win)) then
    return nil
  end
  if vim.api.nvim_win_get_config(win).relative == '' then
    fail('the :PgnBoard window is not a floating window')
  end
  return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
end

local function wait_for_board(what, bufnr, label, fen, row8)
  local last
  local ok = pcall(wait_for, what, bufnr, function()
    last = board_text()
    return last ~= nil
      and last:find('After ' .. label, 1, true) ~= nil
      and last:find(fen, 1, true) ~= nil
      and last:find('8 ' .. row8, 1, true) ~= nil
  end)
  if not ok then
    fail(('%s; the board window shows:\n%s'):format(what, tostring(last)))
  end
end

local function check_board(bufnr)
  local row, col = find_in_buffer(bufnr, 'Nf3')
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  vim.cmd('PgnBoard')
  wait_for_board('the board after 2. Nf3', bufnr, '2. Nf3', EXPECTED_FEN, 'r n b q k b n r')
  say('ok - :PgnBoard shows the position after 2. Nf3 in a floating window')
  row, col = find_in_buffer(bufnr, 'Nc6')
  vim.api.nvim_win_set_cursor(0, { row + 1, col + 1 })
  vim.cmd('doautocmd <nomodeline> CursorMoved')
  wait_for_board('the board to follow the cursor to 2... Nc6', bufnr, '2... Nc6', EXPECTED_FEN_AFTER_NC6, 'r . b q k b n r')
  say('ok - the board follows the cursor to 2... Nc6')
  vim.cmd('PgnBoard')
  if board_text() ~= nil then
    fail('a second :PgnBoard did not close the board')
  end
  say('ok - :PgnBoard again closes it')
end

-- The live board at the end of a game won by its variant's rules.
local function check_variant_end()
  local bufnr = open('antichess.pgn')
  wait_for('the pgn-lsp client to attach to antichess.pgn', bufnr, function()
    return server_state(bufnr) ~= nil
  end)
  local row, col = find_in_buffer(bufnr, 'a3#')
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  vim.cmd('PgnBoard')
  local ending = 'Game over: a win for White by the rules of antichess'
  local last
  local ok = pcall(wait_for, 'the board at the end of the antichess game', bufnr, function()
    last = board_text()
    return last ~= nil and last:find('After 1... a3#', 1, true) ~= nil and last:find(ending, 1, true) ~= nil
  end)
  if not ok then
    fail(('the board at 1... a3# of antichess.pgn should say "%s"; it shows:\n%s'):format(ending, tostring(last)))
  end
  vim.cmd('PgnBoard')
  say('ok - :PgnBoard at the last move of an antichess game says "' .. ending .. '"')
end

local function run()
  -- 1. Diagnostics for an illegal move.
  local illegal = open('illegal.pgn')
  say('ok - illegal.pgn: filetype pgn, commentstring "; %s"')
  wait_for('the pgn-lsp client to initialize on illegal.pgn', illegal, function()
    return server_state(illegal) ~= nil
  end)
  say('ok - pgn-lsp client attached')
  local found
  wait_for('an illegal-move diagnostic (is the server answering LSP?)', illegal, function()
    for _, d in ipairs(vim.diagnostic.get(illegal)) do
      if d.code == 'illegal-move' or (d.message or ''):lower():find('illegal', 1, true) then
        found = d
        return true
      end
    end
    return false
  end)
  local row = find_in_buffer(illegal, '3. Nf3')
  if found.lnum ~= row then
    fail(('illegal-move diagnostic on line %d, expected line %d'):format(found.lnum + 1, row + 1))
  end
  say(('ok - diagnostic on line %d: [%s] %s'):format(found.lnum + 1, tostring(found.code), found.message))

  -- 2. Hover on a move of a second file, served by the same server.
  local first_client = server_state(illegal).id
  local messy = open('messy.pgn')
  wait_for('the pgn-lsp client to attach to messy.pgn', messy, function()
    return server_state(messy) ~= nil
  end)
  if server_state(messy).id ~= first_client or #pgn_lsp.clients(messy) ~= 1 then
    fail('messy.pgn got its own pgn-lsp client instead of reusing the running one')
  end
  say('ok - second buffer reuses the running client')
  local hrow, hcol = find_in_buffer(messy, 'Nf3')
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(messy) },
    position = { line = hrow, character = hcol + 1 },
  }
  local responses, err = vim.lsp.buf_request_sync(messy, 'textDocument/hover', params, timeout)
  if not responses then
    fail('textDocument/hover failed: ' .. tostring(err))
  end
  local text = ''
  for _, response in pairs(responses) do
    if response.err then
      fail('textDocument/hover error: ' .. vim.inspect(response.err))
    end
    if response.result and response.result.contents then
      text = text .. hover_text(response.result.contents)
    end
  end
  -- The FEN must be on a line of its own inside a fenced code block.
  if not text:find('```[%w]*\n' .. vim.pesc(EXPECTED_FEN) .. '\n```') then
    fail('hover on Nf3 has no code block with the FEN ' .. EXPECTED_FEN .. '; got:\n' .. text)
  end
  say('ok - hover on Nf3 shows ' .. EXPECTED_FEN)

  -- 3. Format on save.
  vim.cmd('write')
  local path = vim.api.nvim_buf_get_name(messy)
  local on_disk = table.concat(vim.fn.readfile(path), '\n')
  if not on_disk:find(EXPECTED_MOVETEXT, 1, true) or on_disk:find('1.e4', 1, true) then
    fail('messy.pgn was not formatted on save; on disk:\n' .. on_disk)
  end
  say('ok - :write formatted messy.pgn to ' .. vim.inspect(EXPECTED_MOVETEXT))

  -- 4. The live board, and its status at the end of an antichess game.
  check_board(messy)
  check_variant_end()

  -- 5. Completion where the illegal 3. Nf3 stands: White's legal moves there.
  local crow, ccol = find_in_buffer(illegal, '3. Nf3')
  local at = { textDocument = { uri = vim.uri_from_bufnr(illegal) }, position = { line = crow, character = ccol + 3 } }
  local items = {}
  for _, response in pairs(request(illegal, 'textDocument/completion', at)) do
    local result = response.result or {}
    for _, item in ipairs(result.items or result) do
      items[item.label] = item
    end
  end
  local bb5 = items['Bb5']
  if not bb5 or bb5.detail ~= 'bishop from f1' then
    fail('completion before 3. Nf3 does not offer Bb5 (bishop from f1); got: ' .. vim.inspect(vim.tbl_keys(items)))
  end
  if items['Nf3'] or items['Nc6'] then
    fail('completion before 3. Nf3 offers a move that is not legal there (Nf3 or a Black move)')
  end
  say(('ok - completion at 3. offers %d legal moves, Bb5 among them (%s)'):format(vim.tbl_count(items), bb5.detail))

  -- 6. The preferred quick fix of a non-canonical move, applied to the buffer.
  local fixable = open('fixable.pgn')
  wait_for('a non-canonical-san diagnostic on fixable.pgn', fixable, function()
    for _, d in ipairs(vim.diagnostic.get(fixable)) do
      if d.code == 'non-canonical-san' then
        return true
      end
    end
    return false
  end)
  local frow, fcol = find_in_buffer(fixable, '0-0')
  local range = { start = { line = frow, character = fcol }, ['end'] = { line = frow, character = fcol + 3 } }
  -- The server finds the diagnostics at the range itself: none need be sent.
  local context = { diagnostics = {}, only = { 'quickfix' } }
  local preferred
  for _, response in pairs(request(fixable, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(fixable) }, range = range, context = context,
  })) do
    for _, action in ipairs(response.result or {}) do
      if action.isPreferred and action.kind == 'quickfix' then
        preferred = action
      end
    end
  end
  if not preferred then
    fail('no preferred quick fix for 0-0')
  end
  vim.lsp.util.apply_workspace_edit(preferred.edit, server_state(fixable).offset_encoding or 'utf-16')
  local line = vim.api.nvim_buf_get_lines(fixable, frow, frow + 1, false)[1]
  if not line:find('4. O-O Nf6 *', 1, true) then
    fail('the quick fix "' .. preferred.title .. '" did not write O-O; the line is now: ' .. line)
  end
  say('ok - quick fix "' .. preferred.title .. '" applied: ' .. line)
end

local function write_result(text)
  local f = assert(io.open(dir .. '/result', 'w'))
  f:write(text .. '\n')
  f:close()
end

local ok, err = pcall(run)
if ok then
  write_result('ok')
else
  say('FAIL: ' .. tostring(err))
  local log = vim.lsp.get_log_path()
  if vim.fn.filereadable(log) == 1 then
    say('--- last lines of ' .. log)
    for _, line in ipairs(vim.fn.readfile(log, '', -30)) do
      say(line)
    end
  end
  write_result('FAIL: ' .. tostring(err))
end
vim.cmd('qa!')
