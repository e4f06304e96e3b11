// A small Markdown renderer for the notebook's text cells: headings,
// paragraphs, lists, block quotes, fenced code, inline code, bold, italics
// and links. It builds lit-html templates, so every character of the
// source is escaped as text; nothing the note holds becomes HTML. Links
// keep http(s), mailto and relative targets only.

import { html, nothing, type TemplateResult } from "lit-html";

export type Block =
  | { kind: "h"; level: number; text: string }
  | { kind: "p"; text: string }
  | { kind: "ul" | "ol"; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "code"; text: string }
  | { kind: "hr" };

export type Inline = { kind: "text" | "code" | "b" | "i"; text: string } | { kind: "a"; text: string; href: string };

/** Splits source into blocks. Pure, for tests. */
export function parseBlocks(src: string): Block[] {
  const out: Block[] = [];
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ kind: "p", text: para.join(" ") });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*```/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      out.push({ kind: "code", text: code.join("\n") });
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      out.push({ kind: "h", level: h[1].length, text: h[2] });
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      out.push({ kind: "hr" });
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const kind = item[1] ? "ul" : "ol";
      const last = out[out.length - 1];
      if (last && last.kind === kind) last.items.push(item[3]);
      else out.push({ kind, items: [item[3]] });
      continue;
    }
    const q = /^\s*>\s?(.*)$/.exec(line);
    if (q) {
      flush();
      const last = out[out.length - 1];
      if (last && last.kind === "quote") last.text += " " + q[1];
      else out.push({ kind: "quote", text: q[1] });
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    para.push(line.trim());
  }
  flush();
  return out;
}

/** Splits a line into inline spans. Pure, for tests. */
export function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*]+)\*|\b_([^_]+)_\b|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let at = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m.index > at) out.push({ kind: "text", text: s.slice(at, m.index) });
    if (m[1] !== undefined) out.push({ kind: "code", text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ kind: "b", text: m[2] ?? m[3] });
    else if (m[4] !== undefined || m[5] !== undefined) out.push({ kind: "i", text: m[4] ?? m[5] });
    else if (safeHref(m[7])) out.push({ kind: "a", text: m[6], href: m[7] });
    else out.push({ kind: "text", text: m[0] });
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push({ kind: "text", text: s.slice(at) });
  return out;
}

export function safeHref(h: string): boolean {
  return /^(https?:|mailto:|\/|#|\.)/i.test(h) || !/^[a-z][a-z0-9+.-]*:/i.test(h);
}

function inline(s: string): TemplateResult[] {
  return parseInline(s).map((p) => {
    switch (p.kind) {
      case "code":
        return html`<code>${p.text}</code>`;
      case "b":
        return html`<b>${p.text}</b>`;
      case "i":
        return html`<i>${p.text}</i>`;
      case "a":
        return html`<a href=${p.href} target="_blank" rel="noopener noreferrer">${p.text}</a>`;
      default:
        return html`${p.text}`;
    }
  });
}

/** The note as HTML templates (escaped by lit-html). */
export function renderMarkdown(src: string): TemplateResult {
  return html`${parseBlocks(src).map((b) => {
    switch (b.kind) {
      case "h":
        return b.level === 1 ? html`<h2>${inline(b.text)}</h2>` : b.level === 2 ? html`<h3>${inline(b.text)}</h3>` : html`<h4>${inline(b.text)}</h4>`;
      case "ul":
        return html`<ul>${b.items.map((t) => html`<li>${inline(t)}</li>`)}</ul>`;
      case "ol":
        return html`<ol>${b.items.map((t) => html`<li>${inline(t)}</li>`)}</ol>`;
      case "quote":
        return html`<blockquote>${inline(b.text)}</blockquote>`;
      case "code":
        return html`<pre class="md-code">${b.text}</pre>`;
      case "hr":
        return html`<hr />`;
      case "p":
        return html`<p>${inline(b.text)}</p>`;
    }
    return nothing;
  })}`;
}
