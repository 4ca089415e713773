/**
 * The console's look on Swagger UI: the web app's design tokens (web/src/styles.css), its font stack,
 * its quiet cards on a grey page, its one blue; light or dark as the system prefers (Swagger UI sets
 * `dark-mode` on the root from prefers-color-scheme, and the bulb in the bar switches it). Every rule
 * is scoped under `#swagger-ui` so it wins over Swagger UI's own, light and dark alike. Method badges
 * keep their hues, darker than Swagger UI's for contrast with white text.
 */
export const API_REFERENCE_CSS = `
:root {
  --ml-background: oklch(0.982 0.002 250);
  --ml-foreground: oklch(0.22 0.012 260);
  --ml-card: oklch(1 0 0);
  --ml-muted: oklch(0.962 0.003 250);
  --ml-muted-foreground: oklch(0.51 0.012 260);
  --ml-border: oklch(0.912 0.004 250);
  --ml-input: oklch(0.87 0.006 250);
  --ml-primary: oklch(0.52 0.19 263);
  --ml-primary-soft: oklch(0.955 0.025 263);
  --ml-primary-soft-foreground: oklch(0.42 0.17 263);
  --ml-code: oklch(0.2 0.01 260);
  --ml-font: 'Inter', -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial,
    'Liberation Sans', system-ui, sans-serif;
  --ml-mono: ui-monospace, SFMono-Regular, 'SF Mono', Menlo, 'Cascadia Mono', Consolas,
    'DejaVu Sans Mono', 'Liberation Mono', monospace;
  color-scheme: light;
}
html.dark-mode {
  --ml-background: oklch(0.165 0.006 260);
  --ml-foreground: oklch(0.94 0.004 260);
  --ml-card: oklch(0.198 0.007 260);
  --ml-muted: oklch(0.228 0.007 260);
  --ml-muted-foreground: oklch(0.7 0.012 260);
  --ml-border: oklch(0.285 0.008 260);
  --ml-input: oklch(0.35 0.01 260);
  --ml-primary: oklch(0.53 0.18 263);
  --ml-primary-soft: oklch(0.27 0.06 263);
  --ml-primary-soft-foreground: oklch(0.82 0.09 263);
  --ml-code: oklch(0.13 0.006 260);
  color-scheme: dark;
}
html, body { margin: 0; background: var(--ml-background); }
#swagger-ui .swagger-ui, #swagger-ui .swagger-ui .info .title, #swagger-ui .swagger-ui .opblock-tag,
#swagger-ui .swagger-ui .markdown p, #swagger-ui .swagger-ui .markdown li, #swagger-ui .swagger-ui table,
#swagger-ui .swagger-ui .btn, #swagger-ui .swagger-ui input, #swagger-ui .swagger-ui select,
#swagger-ui .swagger-ui textarea, #swagger-ui .swagger-ui .tab li, #swagger-ui .swagger-ui .model-title,
#swagger-ui .swagger-ui .opblock .opblock-summary-description, #swagger-ui .swagger-ui .response-col_status,
#swagger-ui .swagger-ui .parameter__name, #swagger-ui .swagger-ui .opblock-title, #swagger-ui .swagger-ui label,
#swagger-ui .swagger-ui .responses-inner h4, #swagger-ui .swagger-ui .responses-inner h5,
#swagger-ui .swagger-ui .opblock-section-header h4, #swagger-ui .swagger-ui .response-col_description,
#swagger-ui .swagger-ui .col_header, #swagger-ui .swagger-ui .info li, #swagger-ui .swagger-ui .info p {
  font-family: var(--ml-font);
  color: var(--ml-foreground);
}
#swagger-ui .swagger-ui code, #swagger-ui .swagger-ui pre, #swagger-ui .swagger-ui .opblock-summary-path,
#swagger-ui .swagger-ui .model, #swagger-ui .swagger-ui .prop-type, #swagger-ui .swagger-ui .parameter__type,
#swagger-ui .swagger-ui .parameter__in {
  font-family: var(--ml-mono);
}
#swagger-ui .swagger-ui { color: var(--ml-foreground); }
#swagger-ui .swagger-ui .topbar { background: oklch(0.2 0.01 260); padding: 10px 0; border-bottom: 1px solid var(--ml-border); }
#swagger-ui .swagger-ui .topbar .download-url-wrapper { display: none; }
#swagger-ui .swagger-ui .topbar-wrapper a { max-width: none; }
#swagger-ui .swagger-ui .topbar-wrapper img { height: 32px; }
#swagger-ui .swagger-ui .topbar .topbar-wrapper { flex-wrap: nowrap; gap: 12px; }
#swagger-ui .swagger-ui .wrapper { max-width: 1100px; padding: 0 20px; box-sizing: border-box; }
#swagger-ui .swagger-ui .info { margin: 32px 0 24px; }
#swagger-ui .swagger-ui .info .title { font-size: 28px; font-weight: 600; letter-spacing: -0.01em; }
#swagger-ui .swagger-ui .info .title small { background: oklch(0.45 0.012 260); }
#swagger-ui .swagger-ui .info .title small.version-stamp { background: var(--ml-primary); }
#swagger-ui .swagger-ui .info .title small pre { color: #fff; }
#swagger-ui .swagger-ui .info .markdown p, #swagger-ui .swagger-ui .info .markdown li { font-size: 14px; line-height: 1.6; }
#swagger-ui .swagger-ui .info h2, #swagger-ui .swagger-ui .info h3 { color: var(--ml-foreground); font-family: var(--ml-font); font-weight: 600; }
#swagger-ui .swagger-ui .info a, #swagger-ui .swagger-ui .info .link { color: var(--ml-primary-soft-foreground); }
#swagger-ui .swagger-ui .info .renderedMarkdown table { display: block; overflow-x: auto; }
#swagger-ui .swagger-ui .info .renderedMarkdown th, #swagger-ui .swagger-ui .info .renderedMarkdown td { color: var(--ml-foreground); border-color: var(--ml-border); }
#swagger-ui .swagger-ui .markdown code, #swagger-ui .swagger-ui .renderedMarkdown code {
  background: var(--ml-primary-soft); color: var(--ml-primary-soft-foreground); border-radius: 4px; padding: 1px 5px; font-size: 12.5px;
}
#swagger-ui .swagger-ui .markdown pre, #swagger-ui .swagger-ui .renderedMarkdown pre, #swagger-ui .swagger-ui .highlight-code > pre,
#swagger-ui .swagger-ui .microlight {
  background: var(--ml-code) !important; border: 1px solid var(--ml-border); border-radius: 8px; padding: 14px 16px; overflow-x: auto;
}
#swagger-ui .swagger-ui .markdown pre > code, #swagger-ui .swagger-ui .renderedMarkdown pre > code {
  background: none; color: oklch(0.92 0.005 260); padding: 0; font-size: 12.5px;
}
#swagger-ui .swagger-ui .scheme-container { background: var(--ml-card); border: 1px solid var(--ml-border); border-radius: 10px; box-shadow: none; margin: 0 0 24px; }
#swagger-ui .swagger-ui .opblock-tag { font-size: 18px; font-weight: 600; color: var(--ml-foreground); border-bottom-color: var(--ml-border); }
#swagger-ui .swagger-ui .opblock-tag small { font-size: 13px; font-weight: 400; color: var(--ml-muted-foreground); }
#swagger-ui .swagger-ui .opblock, #swagger-ui .swagger-ui .opblock.opblock-get, #swagger-ui .swagger-ui .opblock.opblock-post,
#swagger-ui .swagger-ui .opblock.opblock-put, #swagger-ui .swagger-ui .opblock.opblock-patch,
#swagger-ui .swagger-ui .opblock.opblock-delete, #swagger-ui .swagger-ui .opblock.opblock-head {
  background: var(--ml-card); border: 1px solid var(--ml-border); border-radius: 8px; box-shadow: 0 1px 2px 0 oklch(0.2 0.02 260 / 0.06);
}
#swagger-ui .swagger-ui .opblock .opblock-summary { border-color: var(--ml-border); }
#swagger-ui .swagger-ui .opblock .opblock-summary-path, #swagger-ui .swagger-ui .opblock .opblock-summary-path a { color: var(--ml-foreground); }
#swagger-ui .swagger-ui .opblock .opblock-summary-description { color: var(--ml-muted-foreground); }
#swagger-ui .swagger-ui .opblock .opblock-section-header { background: var(--ml-muted); box-shadow: none; border-color: var(--ml-border); }
#swagger-ui .swagger-ui .opblock .opblock-section-header .opblock-title span:after { background: var(--ml-primary); }
#swagger-ui .swagger-ui .opblock-body, #swagger-ui .swagger-ui .opblock .tab-header,
#swagger-ui .swagger-ui .opblock .opblock-body > .opblock-description-wrapper { background: transparent; border-color: var(--ml-border); }
#swagger-ui .swagger-ui .opblock-description-wrapper p, #swagger-ui .swagger-ui .opblock-external-docs-wrapper p,
#swagger-ui .swagger-ui .response-col_description__inner p, #swagger-ui .swagger-ui .parameters-col_description p,
#swagger-ui .swagger-ui .parameter__type, #swagger-ui .swagger-ui .parameter__in, #swagger-ui .swagger-ui .response-control-media-type__accept-message,
#swagger-ui .swagger-ui .response-col_links, #swagger-ui .swagger-ui .tab li, #swagger-ui .swagger-ui table thead tr th,
#swagger-ui .swagger-ui table thead tr td { color: var(--ml-muted-foreground); border-color: var(--ml-border); }
#swagger-ui .swagger-ui .tab li.active, #swagger-ui .swagger-ui .tab li button.tablinks { color: var(--ml-foreground); }
#swagger-ui .swagger-ui .opblock .opblock-summary-method { min-width: 72px; border-radius: 6px; color: #fff; text-shadow: none; }
#swagger-ui .swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d4ed8; }
#swagger-ui .swagger-ui .opblock.opblock-post .opblock-summary-method { background: #047857; }
#swagger-ui .swagger-ui .opblock.opblock-put .opblock-summary-method { background: #b45309; }
#swagger-ui .swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f766e; }
#swagger-ui .swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b91c1c; }
#swagger-ui .swagger-ui .opblock.opblock-head .opblock-summary-method { background: #6d28d9; }
#swagger-ui .swagger-ui input[type='text'], #swagger-ui .swagger-ui input[type='password'], #swagger-ui .swagger-ui input[type='search'],
#swagger-ui .swagger-ui input[type='email'], #swagger-ui .swagger-ui select, #swagger-ui .swagger-ui textarea {
  background: var(--ml-card); color: var(--ml-foreground); border: 1px solid var(--ml-input); border-radius: 6px; box-shadow: none;
}
#swagger-ui .swagger-ui .btn { border-radius: 6px; box-shadow: none; color: var(--ml-foreground); border-color: var(--ml-input); background: var(--ml-card); }
#swagger-ui .swagger-ui .btn.execute, #swagger-ui .swagger-ui .btn.authorize { background: var(--ml-primary); border-color: var(--ml-primary); color: #fff; }
#swagger-ui .swagger-ui .btn.authorize svg { fill: #fff; }
#swagger-ui .swagger-ui .btn.cancel { color: oklch(0.56 0.2 27); border-color: oklch(0.56 0.2 27); background: transparent; }
#swagger-ui .swagger-ui .authorization__btn svg, #swagger-ui .swagger-ui .opblock-control-arrow svg,
#swagger-ui .swagger-ui .expand-operation svg, #swagger-ui .swagger-ui .arrow, #swagger-ui .swagger-ui .model-toggle:after { fill: var(--ml-muted-foreground); }
#swagger-ui .swagger-ui section.models { background: var(--ml-card); border: 1px solid var(--ml-border); border-radius: 10px; }
#swagger-ui .swagger-ui section.models h4, #swagger-ui .swagger-ui section.models h4 span { color: var(--ml-foreground); font-family: var(--ml-font); }
#swagger-ui .swagger-ui section.models .model-container { background: var(--ml-muted); border-radius: 8px; }
#swagger-ui .swagger-ui .model-box, #swagger-ui .swagger-ui .json-schema-2020-12, #swagger-ui .swagger-ui .json-schema-2020-12-body {
  background: var(--ml-muted); border-radius: 8px;
}
#swagger-ui .swagger-ui .model, #swagger-ui .swagger-ui .model-title, #swagger-ui .swagger-ui .json-schema-2020-12__title,
#swagger-ui .swagger-ui .json-schema-2020-12-property, #swagger-ui .swagger-ui .json-schema-2020-12-keyword__name,
#swagger-ui .swagger-ui .json-schema-2020-12-keyword__value { color: var(--ml-foreground); }
#swagger-ui .swagger-ui .json-schema-2020-12__attribute--primary, #swagger-ui .swagger-ui .prop-type { color: var(--ml-primary-soft-foreground); }
#swagger-ui .swagger-ui .json-schema-2020-12__constraint { background: var(--ml-primary-soft); color: var(--ml-primary-soft-foreground); }
#swagger-ui .swagger-ui .dialog-ux .modal-ux { background: var(--ml-card); border-color: var(--ml-border); }
#swagger-ui .swagger-ui .dialog-ux .modal-ux-header h3, #swagger-ui .swagger-ui .dialog-ux .modal-ux-content p,
#swagger-ui .swagger-ui .dialog-ux .modal-ux-content h4 { color: var(--ml-foreground); }
#swagger-ui .swagger-ui .filter-container .operation-filter-input { border-color: var(--ml-input); }
/* A narrow screen: the path wraps, the empty links column goes, wide blocks scroll inside themselves. */
@media (max-width: 640px) {
  #swagger-ui .swagger-ui .wrapper { padding: 0 12px; }
  #swagger-ui .swagger-ui .info .title { font-size: 22px; }
  #swagger-ui .swagger-ui .opblock .opblock-summary-method { min-width: 56px; font-size: 12px; }
  #swagger-ui .swagger-ui .opblock .opblock-summary-path { font-size: 13px; word-break: break-all; }
  #swagger-ui .swagger-ui .response-col_links, #swagger-ui .swagger-ui .responses-table .col_header.response-col_links { display: none; }
  #swagger-ui .swagger-ui .opblock-body pre, #swagger-ui .swagger-ui .highlight-code { max-width: calc(100vw - 96px); }
  #swagger-ui .swagger-ui .opblock-body pre.microlight { white-space: pre !important; word-break: normal; }
  #swagger-ui .swagger-ui .opblock-summary .copy-to-clipboard { display: none; }
}
`;
