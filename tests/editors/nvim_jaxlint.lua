-- Drives Neovim's built-in LSP client against `jaxlint server` (Neovim 0.7 and later):
-- open a file, wait for jaxlint's diagnostics, apply one quick fix through
-- vim.lsp.buf.code_action (the menu answered by the script), wait for the diagnostics of the fixed buffer, and
-- write what happened as JSON.  Environment: JAXLINT_SERVER_CMD (a JSON list),
-- JAXLINT_FILE (the file to open), JAXLINT_OUT (where the JSON goes),
-- JAXLINT_FIX_CODE (the rule whose quick fix to apply).
local cmd = vim.fn.json_decode(os.getenv("JAXLINT_SERVER_CMD"))
local file = os.getenv("JAXLINT_FILE")
local out = os.getenv("JAXLINT_OUT")
local fix_code = os.getenv("JAXLINT_FIX_CODE")
local result = { version = vim.version(), errors = {} }

local function finish()
  local fh = io.open(out, "w")
  fh:write(vim.fn.json_encode(result))
  fh:close()
  vim.cmd("qall!")
end

local function diag_list(bufnr)
  local items = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(items, {
      code = d.code or lsp.code, lnum = d.lnum, col = d.col, end_lnum = d.end_lnum,
      end_col = d.end_col, severity = d.severity, message = d.message, source = d.source,
    })
  end
  table.sort(items, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return items
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  vim.bo.filetype = "python"
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "jaxlint", cmd = cmd, root_dir = vim.fn.fnamemodify(file, ":p:h"),
  })
  vim.lsp.buf_attach_client(bufnr, client_id)
  if not vim.wait(30000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20) then
    table.insert(result.errors, "no diagnostics within 30 s")
    return
  end
  result.before = diag_list(bufnr)
  local target
  for _, d in ipairs(result.before) do
    if d.code == fix_code then target = d end
  end
  if not target then
    table.insert(result.errors, "no " .. fix_code .. " diagnostic")
    return
  end
  vim.api.nvim_win_set_cursor(0, { target.lnum + 1, target.col })
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  -- the user picks jaxlint's quick fix from the code-action menu
  vim.ui.select = function(items, _, on_choice)
    result.offered = {}
    local chosen
    for _, item in ipairs(items) do
      local action = item.action or item[2]  -- {client_id, action} before 0.10
      table.insert(result.offered, action.title)
      if not chosen and action.title:find("jaxlint (" .. fix_code .. ")", 1, true) then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  vim.lsp.buf.code_action()
  if not vim.wait(30000, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 20) then
    table.insert(result.errors, "the quick fix changed nothing within 30 s")
    return
  end
  result.lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  vim.wait(30000, function()
    for _, d in ipairs(diag_list(bufnr)) do
      if d.code == fix_code then return false end
    end
    return true
  end, 20)
  result.after = diag_list(bufnr)
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end)
if not ok then table.insert(result.errors, tostring(err)) end
finish()
