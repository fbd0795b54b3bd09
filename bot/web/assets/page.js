// page.js: steps through a fairypost game without reloading. Every move
// is a link to its ?ply=N, so the page works without it.
"use strict";
(function () {
  const main = document.getElementById("game");
  if (!main) return;
  const base = main.dataset.base;
  let v = main.dataset.v, plies = +main.dataset.plies, ply = +main.dataset.ply;
  let flip = main.dataset.flip === "1";
  let img = document.getElementById("board");
  let alts = null;
  const cache = new Map();
  window.fpSteps = [];

  function src(n) {
    return base + "/board.png?ply=" + n + "&v=" + v + (flip ? "&flip=1" : "");
  }
  function prefetch(n) {
    if (n < 0 || n > plies) return;
    const u = src(n);
    if (cache.has(u)) return;
    const i = new Image();
    i.src = u;
    i.decode().catch(function () {});
    cache.set(u, i);
    if (cache.size > 64) cache.delete(cache.keys().next().value);
  }
  function href(n, f) {
    return "?ply=" + n + (f ? "&flip=1" : "");
  }
  function links() {
    return document.querySelectorAll("#moves a[data-ply]");
  }
  function labelOf(n) {
    if (n === 0) return "at the start";
    const a = document.querySelector('#moves a[data-ply="' + n + '"]');
    if (!a) return "after ply " + n;
    const li = a.closest("li"), num = li && li.querySelector(".n");
    let n0 = num ? num.textContent : "";
    if (a.closest(".b") && li.querySelector(".w")) n0 = n0.replace(/\.$/, "...");
    return "after " + (n0 ? n0 + " " : "") + a.textContent;
  }
  function show(n, focus) {
    n = Math.max(0, Math.min(plies, n));
    const t0 = performance.now();
    ply = n;
    const u = src(n);
    const pre = cache.get(u);
    const shown = function (prefetched) {
      requestAnimationFrame(function () {
        window.fpSteps.push({ ply: n, ms: performance.now() - t0, prefetched: prefetched });
      });
    };
    if (pre && pre.complete && pre.naturalWidth > 0 && pre !== img) {
      // A board fetched and decoded ahead takes the place of the one shown.
      pre.id = "board";
      pre.width = pre.naturalWidth;
      pre.height = pre.naturalHeight;
      img.replaceWith(pre);
      cache.delete(u);
      img = pre;
      shown(true);
    } else {
      img.onload = function () { img.onload = null; shown(false); };
      img.removeAttribute("height");
      img.src = u;
    }
    if (alts && alts[n]) img.alt = alts[n];
    else img.alt = "Board " + labelOf(n) + ".";
    document.getElementById("at").innerHTML = "";
    const cap = document.getElementById("at");
    cap.append("Position " + labelOf(n) + " · ply ");
    const s1 = document.createElement("span"); s1.id = "ply"; s1.textContent = n;
    const s2 = document.createElement("span"); s2.id = "plies"; s2.textContent = plies;
    cap.append(s1, " of ", s2);
    for (const a of links()) {
      if (+a.dataset.ply === n) {
        a.setAttribute("aria-current", "step");
        if (focus) a.focus();
        a.scrollIntoView({ block: "nearest" });
      } else a.removeAttribute("aria-current");
    }
    navLinks();
    history.replaceState(null, "", href(n, flip));
    main.dataset.ply = n;
    prefetch(n + 1);
    prefetch(n + 2);
    prefetch(n - 1);
  }
  function navLinks() {
    document.getElementById("first").href = href(0, flip);
    document.getElementById("prev").href = href(Math.max(ply - 1, 0), flip);
    document.getElementById("next").href = href(Math.min(ply + 1, plies), flip);
    document.getElementById("last").href = href(plies, flip);
    document.getElementById("flip").href = href(ply, !flip);
    for (const a of links()) a.href = href(+a.dataset.ply, flip);
  }
  function toggleFlip() {
    flip = !flip;
    main.dataset.flip = flip ? "1" : "0";
    show(ply);
  }

  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest("a");
    if (!a || !main.contains(a)) return;
    if (a.dataset.ply !== undefined) { e.preventDefault(); show(+a.dataset.ply); return; }
    switch (a.id) {
      case "first": e.preventDefault(); show(0); break;
      case "prev": e.preventDefault(); show(ply - 1); break;
      case "next": e.preventDefault(); show(ply + 1); break;
      case "last": e.preventDefault(); show(plies); break;
      case "flip": e.preventDefault(); toggleFlip(); break;
    }
  });
  document.addEventListener("keydown", function (e) {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    switch (e.key) {
      case "ArrowLeft": show(ply - 1); break;
      case "ArrowRight": show(ply + 1); break;
      case "Home": show(0); break;
      case "End": show(plies); break;
      case "f": case "F": toggleFlip(); break;
      default: return;
    }
    e.preventDefault();
  });

  function loadAlts() {
    fetch(base + "/alts.json?v=" + v).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (a) { if (a) { alts = a; if (alts[ply]) img.alt = alts[ply]; } })
      .catch(function () {});
  }

  // Live updates: the game's state is polled with its ETag; when it
  // changed, the page is fetched again and its parts replaced, at the
  // ply the visitor was looking at.
  let etag = '"' + v + '"';
  const poll = +main.dataset.poll;
  function refresh() {
    fetch(href(ply, flip), { cache: "no-store" }).then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        const doc = new DOMParser().parseFromString(html, "text/html");
        const nm = doc.getElementById("game");
        if (!nm) return;
        for (const id of ["state", "moves", "downloads"]) {
          const fresh = doc.getElementById(id), old = document.getElementById(id);
          if (fresh && old) old.replaceWith(document.importNode(fresh, true));
        }
        document.querySelector(".facts").replaceWith(document.importNode(doc.querySelector(".facts"), true));
        document.title = doc.title;
        v = nm.dataset.v;
        plies = +nm.dataset.plies;
        main.dataset.v = v;
        main.dataset.plies = plies;
        main.dataset.poll = nm.dataset.poll;
        etag = '"' + v + '"';
        alts = null;
        loadAlts();
        show(ply);
        if (+nm.dataset.poll > 0) schedule();
      }).catch(function () { schedule(); });
  }
  function check() {
    fetch(base + "/state", { cache: "no-store", headers: { "If-None-Match": etag } })
      .then(function (r) {
        if (r.status === 200) return r.json();
        schedule();
        return null;
      })
      .then(function (st) {
        if (st && String(st.version) !== String(v)) refresh();
        else if (st) schedule();
      })
      .catch(function () { schedule(); });
  }
  let timer = 0;
  function schedule() {
    clearTimeout(timer);
    if (+main.dataset.poll > 0 && !document.hidden) timer = setTimeout(check, +main.dataset.poll);
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden && +main.dataset.poll > 0) check(); });

  window.addEventListener("load", function () {
    prefetch(ply - 1);
    prefetch(ply + 1);
    loadAlts();
  });
  schedule();
})();
