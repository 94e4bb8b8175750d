// Months as whole numbers (year*12 + month-1) make the timeline's
// arithmetic plain; days are YYYYMMDD numbers, as /api/points gives them.

import { digits, monthName, t, year } from "./i18n.js";

export function month(year, m) { return year * 12 + (m - 1); }

// parseMonth reads "YYYY-MM" (or "YYYY", as its January; or its December
// when end is true); it returns null for anything else.
export function parseMonth(s, end = false) {
  const m = /^(\d{4})(?:-(\d{2}))?(?:-\d{2})?$/.exec(s || "");
  if (!m) return null;
  const mm = m[2] ? Number(m[2]) : (end ? 12 : 1);
  if (mm < 1 || mm > 12) return null;
  return month(Number(m[1]), mm);
}

export function formatMonth(i) {
  const y = Math.floor(i / 12), m = i % 12 + 1;
  return `${y}-${String(m).padStart(2, "0")}`;
}

// longMonth writes a month for the reader: "June 2016", "حزيران/يونيو ٢٠١٦".
export function longMonth(i) { return `${monthName(i % 12 + 1)} ${year(Math.floor(i / 12))}`; }

// overlaps is the window rule (siterules.js), here beside the months.
export { overlaps } from "./siterules.js";

// firstDay and lastDay are the month's days as YYYYMMDD numbers.
export function firstDay(i) { return (Math.floor(i / 12) * 100 + i % 12 + 1) * 100 + 1; }
export function lastDay(i) { return (Math.floor(i / 12) * 100 + i % 12 + 1) * 100 + 31; }

// parseDay reads a whole "YYYY-MM-DD" as a YYYYMMDD number, or null: a
// window's edge keeps the day it was given as.
export function parseDay(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s || "");
  return m ? Number(m[1] + m[2] + m[3]) : null;
}

export function formatDay(n) {
  const s = String(n);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

// monthOfDay is the month (as month gives it) of a YYYYMMDD day.
export function monthOfDay(n) { return month(Math.floor(n / 10000), Math.floor(n / 100) % 100); }

export function longDay(n) { return `${digits(n % 100)} ${longMonth(monthOfDay(n))}`; }

// windowText says a window: "June 2016", "15 March 2016 – April 2016";
// each edge as the month or the day it was given as.
export function windowText({ from, to, fromDay, toDay }, sep = " – ") {
  if (from === to && !fromDay && !toDay) return longMonth(from);
  if (fromDay && fromDay === toDay) return longDay(fromDay);
  return rangeText(fromDay ? longDay(fromDay) : longMonth(from), toDay ? longDay(toDay) : longMonth(to), sep);
}

// rangeText joins a range's two ends: "June 2016 – May 2017"; in Arabic
// "من … إلى …", as a dash between two right-to-left dates reads either way.
export function rangeText(a, b, sep = " – ") {
  return t("common.range", { from: a, to: b, sep });
}
