-- Run after docs/editors.md's Neovim block (loaded as init.lua) opened a Python file:
-- wait for jaxlint's diagnostics, run :JaxlintFixAll, wait for the fixed buffer's
-- diagnostics, and write what happened as JSON to $JAXLINT_OUT.
local out = os.getenv("JAXLINT_OUT")
local result = { errors = {} }
local bufnr = vim.api.nvim_get_current_buf()

local function codes()
  local items = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(items, { d.code or ((d.user_data or {}).lsp or {}).code, d.lnum, d.col })
  end
  table.sort(items, function(a, b) return a[2] < b[2] or (a[2] == b[2] and a[3] < b[3]) end)
  return items
end

local ok, err = pcall(function()
  result.filetype = vim.bo.filetype
  if not vim.wait(30000, function() return #vim.diagnostic.get(bufnr) >= 3 end, 20) then
    error("fewer than 3 diagnostics within 30 s")
  end
  result.before = codes()
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.cmd("JaxlintFixAll")
  if not vim.wait(30000, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 20) then
    error(":JaxlintFixAll changed nothing within 30 s")
  end
  result.lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  vim.wait(30000, function() return #vim.diagnostic.get(bufnr) == #result.before - 1 end, 20)
  result.after = codes()
end)
if not ok then table.insert(result.errors, tostring(err)) end
local fh = io.open(out, "w")
fh:write(vim.fn.json_encode(result))
fh:close()
vim.cmd("qall!")
