// The API reference pages' styles (added to the site's sheet on those pages only): method
// badges, the endpoint line, schema lists, responses, the "Test it" form. Colors come from the
// site's palette variables, so both themes keep their contrast.

export const API_CSS = `
.endpoint{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:8px 12px;border:1px solid var(--line);border-radius:var(--radius);background:var(--soft)}
.endpoint .path,.ops .path{overflow-wrap:anywhere;background:none}
.method{display:inline-block;min-width:3.6em;text-align:center;font-weight:700;font-size:.78rem;padding:1px 6px;border-radius:4px;border:1px solid currentColor;font-family:ui-monospace,monospace}
.m-get{color:#146c2e}.m-post{color:#1d4ed8}.m-put,.m-patch{color:#8a4b00}.m-delete{color:#b42318}.m-head,.m-options,.m-trace{color:var(--muted)}
[data-theme=dark] .m-get{color:#7ee2a0}[data-theme=dark] .m-post{color:#9ab8ff}[data-theme=dark] .m-put,[data-theme=dark] .m-patch{color:#ffb454}[data-theme=dark] .m-delete{color:#ff9a90}
@media (prefers-color-scheme:dark){[data-theme=auto] .m-get{color:#7ee2a0}[data-theme=auto] .m-post{color:#9ab8ff}[data-theme=auto] .m-put,[data-theme=auto] .m-patch{color:#ffb454}[data-theme=auto] .m-delete{color:#ff9a90}}
ul.props{list-style:none;padding-left:0;margin:8px 0}ul.props ul.props,details.schema{padding-left:14px;border-left:1px solid var(--line)}
ul.props>li{padding:8px 0;border-top:1px solid var(--line)}ul.props>li:first-child{border-top:0}
.prop{display:flex;flex-wrap:wrap;gap:6px;align-items:baseline}.prop code{font-weight:600;overflow-wrap:anywhere}
.type{color:var(--muted);font-size:.88rem;overflow-wrap:anywhere}.req{color:var(--warn);font-size:.8rem}.deprecated,.flag{color:var(--muted);font-size:.8rem}
.facts{color:var(--muted);font-size:.88rem;margin:4px 0}.md>:first-child{margin-top:4px}.md>:last-child{margin-bottom:4px}
details.schema>summary,details.example>summary{cursor:pointer;color:var(--muted);font-size:.88rem}
details.response{border:1px solid var(--line);border-radius:var(--radius);padding:6px 12px;margin:8px 0}details.response>summary{cursor:pointer}
.status{font-weight:700;font-family:ui-monospace,monospace}.s2{color:#146c2e}.s4{color:#b42318}.s3{color:var(--muted)}
[data-theme=dark] .s2{color:#7ee2a0}[data-theme=dark] .s4{color:#ff9a90}@media (prefers-color-scheme:dark){[data-theme=auto] .s2{color:#7ee2a0}[data-theme=auto] .s4{color:#ff9a90}}
ul.ops{list-style:none;padding:0}ul.ops li{display:flex;flex-wrap:wrap;gap:8px;align-items:baseline;padding:4px 0}ul.ops a{text-decoration:none;display:flex;gap:8px;align-items:baseline}
form.try-it{display:grid;gap:10px;padding:12px;border:1px solid var(--line);border-radius:var(--radius)}
form.try-it .field{display:grid;gap:2px}form.try-it input,form.try-it select,form.try-it textarea{font:inherit;color:var(--fg);background:var(--soft);border:1px solid var(--line);border-radius:var(--radius);padding:5px 8px;min-width:0;width:100%}
form.try-it textarea{font-family:ui-monospace,monospace;font-size:.88rem}
.js form.try-it .nojs{display:none}html:not(.js) form.try-it .send{display:none}
form.try-it .note{color:var(--muted);font-size:.88rem;margin:0}
.try-result{white-space:pre-wrap;overflow-wrap:anywhere;max-height:400px;overflow:auto;background:var(--code);padding:8px;border-radius:var(--radius);margin:0}
section.api-inline{margin:24px 0;padding:12px 16px;border:1px solid var(--line);border-radius:var(--radius)}section.api-inline>h2{margin-top:0}
.api-missing{color:var(--warn);border:1px dashed currentColor;border-radius:var(--radius);padding:8px 12px}
`;
