"""Editor integration. `edits` is pure (positions, fixes as text edits); `server` needs the `lsp` extra."""
