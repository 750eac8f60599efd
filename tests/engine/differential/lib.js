// lib.js: what the Node.js programs of the differential test share: PCL's
// built-in functions that JavaScript lacks, written as PCL defines them
// (../../../../shared/spec/functions.md).
"use strict";

// toJSON: JSON with object keys in ascending order, compact.
function toJSON(v) {
  if (Array.isArray(v)) {
    return "[" + v.map(toJSON).join(",") + "]";
  }
  if (v !== null && typeof v === "object") {
    return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + toJSON(v[k])).join(",") + "}";
  }
  return JSON.stringify(v);
}

// element: the element at index i, wrapping around (negative from the end).
function element(list, i) {
  return list[((i % list.length) + list.length) % list.length];
}

// lookup: the map's value of key, or the default.
function lookup(map, key, dflt) {
  return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : dflt;
}

module.exports = { toJSON, element, lookup };
