// groundjudge view: filtering and sorting of the run grid, claim selection and keyboard navigation.
// The pages are complete without this script; it only hides, orders and selects what is there.
"use strict";
document.documentElement.classList.add("js");

function runPage() {
  const grid = document.getElementById("grid");
  const form = document.getElementById("filters");
  if (!grid || !form) return;
  form.hidden = false;
  const lo = Number(grid.dataset.lo), hi = Number(grid.dataset.hi);
  const tbody = grid.tBodies[0];
  const squares = Array.from(tbody.querySelectorAll("td[data-s]"));
  for (const td of squares) {
    td.dataset.text = td.firstChild.textContent;
    td.dataset.cls = td.className;
    const totals = td.dataset.s.split(",").filter((v) => v !== "").map(Number);
    td.dataset.d = totals.length > 1 ? Math.max(...totals) - Math.min(...totals) : "";
  }

  function bucket(v) {
    if (!(hi > lo)) return 0;
    return Math.min(9, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * 10)));
  }

  function apply() {
    const shownCells = new Set(Array.from(form.elements.cell).filter((b) => b.checked).map((b) => Number(b.value)));
    const judge = form.elements.judge.value;
    const verdict = form.elements.verdict.value;
    const spread = form.elements.spread.value === "" ? null : Number(form.elements.spread.value);
    for (const row of grid.rows) {
      Array.from(row.cells).forEach((c, i) => c.classList.toggle("hide", i > 0 && !shownCells.has(i - 1)));
    }
    let shown = 0;
    for (const row of tbody.rows) {
      let any = false;
      Array.from(row.cells).forEach((td, i) => {
        if (i === 0 || !td.dataset.cls) return;
        let cls = td.dataset.cls, text = td.dataset.text;
        if (judge !== "") {
          const v = td.dataset.s.split(",")[Number(judge)];
          cls = cls.replace(/\bt\d\b/, "");
          if (v === undefined || v === "") { text = "–"; cls += " x"; } else { text = v; cls += " t" + bucket(Number(v)); }
        }
        const ok = shownCells.has(i - 1) &&
          (verdict === "" || td.dataset.v.includes(verdict)) &&
          (spread === null || (td.dataset.d !== "" && Number(td.dataset.d) > spread)) &&
          (judge === "" || text !== "–");
        td.className = cls + (ok ? "" : " dim") + (shownCells.has(i - 1) ? "" : " hide");
        td.firstChild.textContent = text;
        if (ok) { any = true; shown += 1; }
      });
      row.classList.toggle("hide", !any);
    }
    form.elements.shown.value = shown + " answers shown";
  }

  let sortBy = null, descending = false;
  function sortRows(key) {
    descending = sortBy === key ? !descending : key !== "q";
    sortBy = key;
    const rows = Array.from(tbody.rows);
    const value = (row) => {
      if (key === "q") return row.cells[0].textContent;
      const n = parseFloat(row.cells[Number(key) + 1].textContent);
      return Number.isNaN(n) ? null : n;
    };
    rows.sort((a, b) => {
      const x = value(a), y = value(b);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      const order = typeof x === "string" ? x.localeCompare(y, undefined, { numeric: true }) : x - y;
      return descending ? -order : order;
    });
    for (const row of rows) tbody.appendChild(row);
    for (const th of grid.tHead.rows[0].cells) th.removeAttribute("aria-sort");
    const th = grid.tHead.querySelector('th[data-sort="' + key + '"]');
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  for (const th of grid.tHead.querySelectorAll("th[data-sort]")) {
    th.tabIndex = 0;
    th.addEventListener("click", () => sortRows(th.dataset.sort));
    th.addEventListener("keydown", (e) => { if (e.key === "Enter") sortRows(th.dataset.sort); });
  }
  apply();
}

function answerPage() {
  const marks = Array.from(document.querySelectorAll("[data-claim]:not(.claim-detail)"));
  const details = Array.from(document.querySelectorAll(".claim-detail"));
  let current = -1;

  function select(anchor, scroll) {
    for (const d of details) d.classList.toggle("selected", d.id === anchor);
    for (const m of marks) m.classList.toggle("selected", m.dataset.claim === anchor);
    current = details.findIndex((d) => d.id === anchor);
    const detail = document.getElementById(anchor);
    if (detail && scroll) detail.scrollIntoView({ block: "nearest" });
    history.replaceState(null, "", "#" + anchor);
  }

  for (const m of marks) {
    m.addEventListener("click", (e) => { if (!e.target.closest("a")) select(m.dataset.claim, true); });
    m.addEventListener("keydown", (e) => { if (e.key === "Enter") select(m.dataset.claim, true); });
  }
  for (const a of document.querySelectorAll("a.cref, .claim-detail h3 a")) {
    a.addEventListener("click", (e) => {
      const anchor = a.getAttribute("href").slice(1).replace(/^m-/, "");
      e.preventDefault();
      select(anchor, true);
    });
  }
  const all = document.getElementById("show-all");
  if (all) all.addEventListener("click", () => document.body.classList.toggle("show-all"));
  const hash = decodeURIComponent(location.hash.slice(1)).replace(/^m-/, "");
  if (hash && document.getElementById(hash)) select(hash, false);

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea")) return;
    if ((e.key === "j" || e.key === "k") && details.length) {
      const next = e.key === "j" ? Math.min(details.length - 1, current + 1) : Math.max(0, current - 1);
      select(details[next].id, true);
      const mark = document.getElementById("m-" + details[next].id);
      if (mark) mark.scrollIntoView({ block: "nearest" });
      return;
    }
    const link = document.querySelector('a[data-key="' + CSS.escape(e.key) + '"]');
    if (link) link.click();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.classList.contains("run-page")) runPage();
  if (document.body.classList.contains("answer-page")) answerPage();
});
