-- :PgnBoard, the live board: a floating window in the top right corner that
-- shows the position at the cursor (the move that led to it, whose move it
-- is, the board as text, the FEN), asked of the server with the custom
-- `pgn/position` request. It refreshes when the cursor moves or the text
-- changes (debounced) until `:PgnBoard` is run again or the buffer goes away.
-- Works on Neovim 0.7 and later.
local M = {}

local METHOD = 'pgn/position'
local NAME = 'pgn_lsp'
local DEBOUNCE_MS = 80
local uv = vim.uv or vim.loop

-- The open board: { source = bufnr, buf = float buffer, win = float window,
-- group = augroup id, timer = uv timer, generation = request counter }.
local board

local function client_of(bufnr)
  for _, client in ipairs(require('pgn_lsp').clients(bufnr)) do
    if client.name == NAME then
      return client
    end
  end
  return nil
end

local function capitalized(side)
  return (side:gsub('^%l', string.upper))
end

--- The lines the window shows for a `pgn/position` result (nil: no game).
function M.lines(result)
  if result == nil or result == vim.NIL then
    return { 'The cursor is not in a game.' }
  end
  local lines = {}
  if type(result.lastMove) == 'table' then
    table.insert(lines, 'After ' .. result.lastMove.label)
  else
    table.insert(lines, 'Start position')
  end
  local side = capitalized(result.sideToMove)
  local status = ({
    checkmate = ('Checkmate: %s wins'):format(result.sideToMove == 'white' and 'Black' or 'White'),
    stalemate = 'Stalemate',
    variantEnd = 'Game over: ' .. (result.ending or "by the variant's rules"),
    check = side .. ' to move, in check',
  })[result.status] or (side .. ' to move')
  if (result.depth or 0) > 0 then
    status = status .. (' (variation, depth %d)'):format(result.depth)
  end
  table.insert(lines, status)
  if type(result.illegalMove) == 'table' then
    table.insert(lines, result.illegalMove.label .. ' is not legal here: position before it')
  end
  table.insert(lines, '')
  for _, row in ipairs(vim.split(result.diagram, '\n', { plain = true })) do
    table.insert(lines, '  ' .. row)
  end
  table.insert(lines, '')
  table.insert(lines, result.fen)
  return lines
end

local function show(lines)
  if not board then
    return
  end
  local width = 0
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line))
  end
  vim.bo[board.buf].modifiable = true
  vim.api.nvim_buf_set_lines(board.buf, 0, -1, false, lines)
  vim.bo[board.buf].modifiable = false
  local config = {
    relative = 'editor',
    anchor = 'NE',
    row = 1,
    col = vim.o.columns,
    width = math.max(width, 1),
    height = #lines,
    style = 'minimal',
    border = 'rounded',
    focusable = false,
  }
  if board.win and vim.api.nvim_win_is_valid(board.win) then
    vim.api.nvim_win_set_config(board.win, config)
  else
    board.win = vim.api.nvim_open_win(board.buf, false, config)
  end
end

local function request()
  if not board or not vim.api.nvim_buf_is_valid(board.source) then
    return
  end
  if vim.api.nvim_get_current_buf() ~= board.source then
    return -- the board keeps showing the source buffer's last position
  end
  local client = client_of(board.source)
  if not client then
    show({ 'pgn-lsp is not attached to this buffer.' })
    return
  end
  board.generation = board.generation + 1
  local generation = board.generation
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  vim.lsp.buf_request(board.source, METHOD, params, function(err, result, ctx)
    if not board or generation ~= board.generation then
      return -- closed, or a newer request is on its way
    end
    if ctx and ctx.client_id and ctx.client_id ~= client.id then
      return
    end
    if err then
      show({ 'No board: ' .. tostring(err.message or err) })
    else
      show(M.lines(result))
    end
  end)
end

local function schedule()
  if board then
    board.timer:stop()
    board.timer:start(DEBOUNCE_MS, 0, vim.schedule_wrap(request))
  end
end

function M.close()
  if not board then
    return
  end
  local closing = board
  board = nil
  closing.timer:stop()
  closing.timer:close()
  pcall(vim.api.nvim_del_augroup_by_id, closing.group)
  if closing.win and vim.api.nvim_win_is_valid(closing.win) then
    vim.api.nvim_win_close(closing.win, true)
  end
  if vim.api.nvim_buf_is_valid(closing.buf) then
    vim.api.nvim_buf_delete(closing.buf, { force = true })
  end
end

--- Opens the board for the current buffer.
function M.open()
  M.close()
  local source = vim.api.nvim_get_current_buf()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = 'wipe'
  board = {
    source = source,
    buf = buf,
    group = vim.api.nvim_create_augroup('pgn_lsp_board', { clear = true }),
    timer = uv.new_timer(),
    generation = 0,
  }
  vim.api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'TextChanged', 'TextChangedI' }, {
    group = board.group,
    buffer = source,
    callback = schedule,
  })
  vim.api.nvim_create_autocmd({ 'BufWipeout', 'BufDelete' }, {
    group = board.group,
    buffer = source,
    callback = function()
      vim.schedule(M.close)
    end,
  })
  show({ 'Asking pgn-lsp for the position...' })
  request()
end

--- :PgnBoard: opens the board, or closes it when it is open.
function M.toggle()
  if board then
    M.close()
  else
    M.open()
  end
end

--- Whether the board is open, and its window.
function M.window()
  return board and board.win
end

--- Defines the :PgnBoard command (for one buffer, or everywhere when bufnr is nil).
function M.define_command(bufnr)
  local opts = { desc = 'pgn-lsp: toggle the live board at the cursor' }
  if bufnr then
    vim.api.nvim_buf_create_user_command(bufnr, 'PgnBoard', M.toggle, opts)
  else
    vim.api.nvim_create_user_command('PgnBoard', M.toggle, opts)
  end
end

return M
