// CSV for the preview table (RFC 4180: quoted fields, doubled quotes, CRLF or LF line ends). No CSV
// library is installed; this reads only what the preview shows.

/**
 * The rows of `text`, at most `maxRows`; `truncated` when there were more. A quoted field may span
 * lines. A trailing line end does not make an empty row.
 */
export function parseCsv(text: string, maxRows = 500): { rows: string[][]; truncated: boolean } {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = "";
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      endRow();
      if (c === "\r" && text[i + 1] === "\n") i++;
      if (rows.length > maxRows) return { rows: rows.slice(0, maxRows), truncated: true };
    } else field += c;
    i++;
  }
  if (field !== "" || row.length > 0) endRow();
  return { rows: rows.slice(0, maxRows), truncated: rows.length > maxRows };
}
