// Run by tests/test_site.py in headless Chromium, on a page served from the built site's folder.
// Loads every page of the site in an iframe (the theme's scripts run), then:
// - on each rule page: the "Example" section is rendered and holds the rule's example;
// - every link on every page to the site itself resolves (the file exists; a #fragment names an element).
// The outcome is posted as JSON to /_result on the server that serves the site.
async function loadFrame(url) {
  const frame = document.createElement("iframe");
  document.body.appendChild(frame);
  await new Promise((resolve, reject) => {
    frame.onload = resolve;
    frame.onerror = reject;
    frame.src = url;
  });
  return frame;
}

function exampleOf(doc) {
  // the elements between the "Example" heading and the next h2
  const heading = doc.getElementById("example");
  if (!heading) return null;
  let text = "";
  let code = "";
  for (let node = heading.nextElementSibling; node && node.tagName !== "H2"; node = node.nextElementSibling) {
    text += node.textContent;
    node.querySelectorAll("pre code, code").forEach((c) => (code += c.textContent));
  }
  return { text: text.trim(), code };
}

async function check(pages, expectations) {
  const problems = [];
  const links = new Map(); // absolute URL without fragment -> set of fragments (and who linked)
  let rulePages = 0;
  for (const page of pages) {
    const url = new URL(page, location.href).href;
    const frame = await loadFrame(url);
    const doc = frame.contentDocument;
    if (!doc || !doc.querySelector("article, .md-content, body")) {
      problems.push(`${page}: did not render`);
      continue;
    }
    const expected = expectations[page];
    if (expected !== undefined) {
      rulePages += 1;
      const example = exampleOf(doc);
      if (!example || !example.text) problems.push(`${page}: no rendered Example section`);
      else if (expected && !example.code.replace(/\s+/g, "").includes(expected.replace(/\s+/g, "")))
        problems.push(`${page}: the Example section does not show the rule's example`);
    }
    for (const anchor of doc.querySelectorAll("a[href]")) {
      const target = new URL(anchor.getAttribute("href"), url);
      if (target.origin !== location.origin) continue;
      const bare = target.href.split("#")[0];
      if (!links.has(bare)) links.set(bare, []);
      links.get(bare).push({ from: page, fragment: decodeURIComponent(target.hash.slice(1)) });
    }
    frame.remove();
  }
  let checked = 0;
  for (const [bare, uses] of links) {
    checked += 1;
    const response = await fetch(bare);
    if (!response.ok) {
      problems.push(`${uses[0].from}: broken link ${bare} (HTTP ${response.status})`);
      continue;
    }
    const fragments = uses.filter((u) => u.fragment);
    if (!fragments.length || !(response.headers.get("content-type") || "").includes("html")) continue;
    const target = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const use of fragments) {
      if (!target.getElementById(use.fragment) && !target.getElementsByName(use.fragment).length)
        problems.push(`${use.from}: link to ${bare}#${use.fragment}: no such anchor`);
    }
  }
  return { pages: pages.length, rulePages, links: checked, problems };
}

(async () => {
  const input = JSON.parse(document.getElementById("input").textContent);
  let outcome;
  try {
    outcome = await check(input.pages, input.examples);
  } catch (error) {
    outcome = { problems: [`checker failed: ${error}`] };
  }
  await fetch("/_result", { method: "POST", body: JSON.stringify(outcome) });
})();
