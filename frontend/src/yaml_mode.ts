// A small YAML highlighter for the YAML editor cells (comments, keys,
// strings, numbers and booleans, list dashes): enough to read a pipeline
// file; the server's loader does the real checking.

import { StreamLanguage, type StreamParser } from "@codemirror/language";

const parser: StreamParser<{ inValue: boolean }> = {
  name: "yaml",
  startState: () => ({ inValue: false }),
  token(stream, state) {
    if (stream.sol()) state.inValue = false;
    if (stream.eatSpace()) return null;
    if (stream.peek() === "#") {
      stream.skipToEnd();
      return "comment";
    }
    if (!state.inValue && stream.match(/^-(?=\s|$)/)) return "punctuation";
    if (!state.inValue && stream.match(/^[A-Za-z_][\w.\-]*(?=\s*:(\s|$))/)) return "propertyName";
    if (stream.match(/^:(?=\s|$)/)) {
      state.inValue = true;
      return "punctuation";
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^']|'')*'?/)) return "string";
    if (stream.match(/^(true|false|null|~)(?=[\s,\]}]|$)/)) return "atom";
    if (stream.match(/^-?\d[\d_.]*(?:[eE][-+]?\d+)?(?=[\s,\]}]|$)/)) return "number";
    if (stream.match(/^[[\]{},]/)) return "punctuation";
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: "#" } },
};

export const yamlLanguage = StreamLanguage.define(parser);
