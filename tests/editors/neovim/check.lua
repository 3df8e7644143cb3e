-- Headless Neovim 0.7 (Debian 12's) against `tilec lsp`: run.sh starts
--   nvim --headless -u check.lua
-- with TILEC (the compiler) and KERNEL (a copy of typo.tile) in the environment. It uses
-- the 0.7 API only (vim.lsp.start_client and buf_attach_client; vim.lsp.start came in
-- 0.8). Each entry of `checks` is one feature; a failure exits with status 1 and says
-- which. Adding a feature is one more entry.
local tilec, kernel = os.getenv('TILEC'), os.getenv('KERNEL')
local TIMEOUT_MS = 20000

local function say(message)
  io.stderr:write('nvim-lsp: ' .. message .. '\n')
end

local function fail(message)
  say('FAIL: ' .. message)
  vim.cmd('cquit 1')
end

local function expect(condition, message)
  if not condition then error(message, 0) end
end

vim.cmd('edit ' .. vim.fn.fnameescape(kernel))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = 'tilec',
  cmd = { tilec, 'lsp' },
  root_dir = vim.fn.fnamemodify(kernel, ':h'),
  on_exit = function(code) if code ~= 0 then say('the server exited with ' .. code) end end,
})
if not client_id then fail('vim.lsp.start_client did not start ' .. tilec) end
vim.lsp.buf_attach_client(buf, client_id)
local client = vim.lsp.get_client_by_id(client_id)

local function request(method, params)
  local response, err = client.request_sync(method, params, TIMEOUT_MS, buf)
  expect(response, method .. ': no response (' .. tostring(err) .. ')')
  expect(not response.err, method .. ': ' .. vim.inspect(response.err))
  return response.result
end

local function diagnostics_become(wanted)
  return vim.wait(TIMEOUT_MS, function() return #vim.diagnostic.get(buf) == wanted end, 20)
end

local checks = {
  { 'diagnostics', function()
    expect(diagnostics_become(1), 'expected one diagnostic, got ' .. #vim.diagnostic.get(buf))
    local d = vim.diagnostic.get(buf)[1]
    expect(d.lnum == 3 and d.col == 10, 'the diagnostic is at ' .. d.lnum .. ':' .. d.col .. ', expected 3:10')
    expect(d.message:find("did you mean 'load'", 1, true), 'unexpected message: ' .. d.message)
  end },

  { 'completion', function()
    vim.api.nvim_win_set_cursor(0, { 5, 19 })  -- on the `t` of store(y, [0, 0], t)
    local result = request('textDocument/completion', vim.lsp.util.make_position_params())
    local labels = {}
    for _, item in ipairs(result.items or result) do labels[item.label] = item end
    for _, name in ipairs({ 'x', 'y', 't', 'load', 'row_max', 'unroll' }) do
      expect(labels[name], 'completion lacks ' .. name)
    end
    expect(labels.load.detail:find('^load%(tensor'), 'load has the detail ' .. tostring(labels.load.detail))
  end },

  { 'signature help', function()
    vim.api.nvim_win_set_cursor(0, { 5, 19 })
    local result = request('textDocument/signatureHelp', vim.lsp.util.make_position_params())
    expect(result and result.signatures[1].label == 'store(tensor, [offsets], tile)',
           'signature help gave ' .. vim.inspect(result))
    expect(result.activeParameter == 2, 'the active parameter is ' .. tostring(result.activeParameter))
  end },

  { 'code action', function()
    local d = vim.lsp.diagnostic.get_line_diagnostics(buf, 3)
    expect(#d == 1, 'expected one LSP diagnostic on line 4, got ' .. #d)
    local actions = request('textDocument/codeAction', {
      textDocument = vim.lsp.util.make_text_document_params(buf),
      range = d[1].range,
      context = { diagnostics = d },
    })
    expect(#actions == 1, 'expected one code action, got ' .. #actions)
    expect(actions[1].title == "Replace 'lod' with 'load'", 'the action is ' .. actions[1].title)
    vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding or 'utf-16')
    local line = vim.api.nvim_buf_get_lines(buf, 3, 4, true)[1]
    expect(line == '  let t = load(x, [0, 0], [16, 128]);', 'after the fix the line is ' .. line)
    expect(diagnostics_become(0), 'the fixed buffer still has ' .. #vim.diagnostic.get(buf) .. ' diagnostics')
  end },

  { 'formatting', function()
    -- Neovim 0.7's own formatting command, as a user runs it (:lua vim.lsp.buf.formatting_sync()).
    vim.api.nvim_buf_set_lines(buf, 4, 5, true, { 'store( y,[0,0] ,t ) ;' })
    vim.lsp.buf.formatting_sync(nil, TIMEOUT_MS)
    local line = vim.api.nvim_buf_get_lines(buf, 4, 5, true)[1]
    expect(line == '  store(y, [0, 0], t);', 'after formatting the line is ' .. line)
  end },
}

for _, check in ipairs(checks) do
  local ok, err = pcall(check[2])
  if not ok then fail(check[1] .. ': ' .. tostring(err)) end
  say('ok: ' .. check[1])
end
vim.lsp.stop_client(client_id)
vim.cmd('qall!')
