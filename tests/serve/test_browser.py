#!/usr/bin/env python3
"""`faultline serve` in a real headless Chromium (Debian's chromium, chromium-driver and
python3-selenium): paste the example and see the initiating rank and the fix, and a failure whose
differential is shown as not matched; upload a tarball; browse and search the encyclopedia and
follow a related link, and see an entry's differential; an XSS attempt in a log renders as
text; paste and result work with JavaScript disabled. Each step saves a screenshot.
Usage: test_browser.py FAULTLINE SCREENSHOT_DIR (from the repository root)."""
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serverlib import Server  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FL = os.path.abspath(sys.argv[1])
SHOTS = os.path.abspath(sys.argv[2])
os.makedirs(SHOTS, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def browser(js=True):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,1600", "--hide-scrollbars"):
        o.add_argument(a)
    if not js:
        o.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def shot(d, name):
    # the whole page: grow the window to the document's height first
    h = d.execute_script("return document.documentElement.scrollHeight") if d.capabilities else 1600
    d.set_window_size(1280, min(max(h, 900), 6000))
    d.save_screenshot(os.path.join(SHOTS, name + ".png"))
    d.set_window_size(1280, 1600)


def submit(d):
    old = d.find_element(By.TAG_NAME, "html")
    d.find_element(By.CSS_SELECTOR, "form.paste button[type=submit]").click()
    WebDriverWait(d, 60).until(EC.staleness_of(old))
    WebDriverWait(d, 60).until(lambda x: x.execute_script("return document.readyState") == "complete")


def paste(d, text):
    area = d.find_element(By.ID, "log")
    d.execute_script("arguments[0].value = arguments[1];", area, text)
    submit(d)


def main():
    s = Server(FL, "--anon-per-day", "1000")
    d = browser()
    try:
        base = s.url("")
        # paste the bundled example
        d.get(base + "/")
        shot(d, "01-paste-page")
        check("Try a sample" in d.page_source, "paste page lists samples")
        paste(d, open("examples/torchrun-8rank-oom/train.log").read())
        body = d.find_element(By.TAG_NAME, "body").text
        check("CUDA out of memory" in body, "result: headline diagnosis")
        check(d.find_element(By.CSS_SELECTOR, ".init-rank").text == "rank 3", "result: initiating rank 3")
        check(d.find_element(By.CSS_SELECTOR, ".strip .rank.init").text == "3", "rank strip: rank 3 first")
        check(len(d.find_elements(By.CSS_SELECTOR, ".strip .rank.coll")) == 7, "rank strip: 7 collateral ranks greyed")
        fix = d.find_element(By.ID, "fix-code").text
        check("--per_device_train_batch_size" in fix, "result: fix code block")
        check(d.find_element(By.CSS_SELECTOR, "button[data-copy=fix-code]").is_displayed(),
              "copy button shown with JavaScript")
        where = d.find_element(By.CSS_SELECTOR, ".evidence .where").text
        check(where.startswith("pasted log, line "), "evidence of a paste reads 'pasted log, line N': " + where)
        meanings = d.find_elements(By.CSS_SELECTOR, ".evidence details.meaning")
        check(len(meanings) > 0, "evidence lines say what they mean")
        if meanings:
            meanings[0].find_element(By.TAG_NAME, "summary").click()
            check("out of memory" in meanings[0].text.lower() or "rank" in meanings[0].text,
                  "the first evidence line's meaning opens: " + meanings[0].text[:80])
        for summary in d.find_elements(By.CSS_SELECTOR, ".followups summary"):
            summary.click()
        faq = d.find_elements(By.CSS_SELECTOR, ".followups details.faq h3")
        check(len(faq) >= 2, "the entry's FAQ answers inline (%d questions)" % len(faq))
        shot(d, "02-result-oom")
        # two failures in one paste: the runner-up says what would tell it apart
        d.get(base + "/")
        paste(d, "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a "
                 "total capacity of 79.10 GiB of which 1.62 GiB is free.\n"
                 "[rank1]: RuntimeError: DataLoader worker (pid 4242) is killed by signal: Killed.\n")
        for summary in d.find_elements(By.CSS_SELECTOR, ".followups summary"):
            summary.click()
        apart = d.find_elements(By.CSS_SELECTOR, ".followups .others .apart")
        check(len(apart) == 1 and "confirm" in apart[0].text.lower(),
              "a runner-up says what tells it apart and how to confirm it")
        shot(d, "02b-result-runner-up")
        # a save that failed with EIO and nothing else: disk-full is listed as not matched, apart
        d.get(base + "/")
        paste(d, open("tests/fixtures/kb/storage-io-error/pos-wording-torch-legacy-fd.log").read())
        check(d.find_element(By.TAG_NAME, "h1").text == "Shared filesystem I/O error", "differential: the headline matched")
        alt = d.find_elements(By.CSS_SELECTOR, "section.card.differential")
        check(len(alt) == 1, "differential: one card of failures not matched")
        if alt:
            heading = alt[0].find_element(By.ID, alt[0].get_attribute("aria-labelledby"))
            check(heading.tag_name == "h2" and heading.text == "Not matched, also consider",
                  "differential: the card is a labelled section: " + heading.text)
            items = alt[0].find_elements(By.CSS_SELECTOR, "ul.differentials li")
            check(len(items) == 1 and items[0].text.startswith("NOT MATCHED No space left on device disk-full"),
                  "differential: disk-full, labelled not matched: " + (items[0].text[:60] if items else ""))
            check(not alt[0].find_elements(By.CSS_SELECTOR, ".evidence"), "differential: no evidence block")
            # after the headline's Fix and Verify: from the Verify's copy button, Tab reaches the entry's link
            link = alt[0].find_element(By.CSS_SELECTOR, "a[href='/kb/disk-full']")
            verify = [s for s in d.find_elements(By.CSS_SELECTOR, "section.card")
                      if s.find_elements(By.TAG_NAME, "h2") and s.find_element(By.TAG_NAME, "h2").text == "Verify"]
            check(len(verify) == 1 and d.execute_script(
                "return arguments[0].compareDocumentPosition(arguments[1]) & 4;", verify[0], alt[0]) != 0,
                "differential: the card comes after the headline's Verify")
            if verify:
                # Tab from the Verify's copy button passes its code block (a scrollable region is
                # focusable) and then reaches the entry's link, with nothing in between
                d.execute_script("arguments[0].focus();", verify[0].find_element(By.CSS_SELECTOR, "button"))
                for _ in range(3):
                    if d.switch_to.active_element == link:
                        break
                    d.switch_to.active_element.send_keys(Keys.TAB)
                    inside = d.execute_script("return arguments[0].contains(document.activeElement);", verify[0])
                    check(inside or d.switch_to.active_element == link,
                          "differential: nothing between the Verify and its entry link")
                check(d.switch_to.active_element == link, "differential: Tab from the Verify reaches its entry link")
            check("df -h" in alt[0].find_element(By.TAG_NAME, "pre").text, "differential: its Verify tells the two apart")
        check(len(d.find_elements(By.CSS_SELECTOR, ".evidence li")) == 1, "differential: the evidence is the EIO line alone")
        check(not d.find_elements(By.CSS_SELECTOR, ".followups .others"), "differential: not listed as what else it could be")
        shot(d, "02c-result-differential")

        # upload a tarball of a log folder
        tmp = tempfile.mkdtemp()
        tgz = os.path.join(tmp, "job-logs.tar.gz")
        with tarfile.open(tgz, "w:gz") as t:
            t.add("examples/nccl-ib-network-4rank/logs", arcname="logs")
        d.get(base + "/")
        d.find_element(By.ID, "files").send_keys(tgz)
        submit(d)
        shutil.rmtree(tmp, ignore_errors=True)
        body = d.find_element(By.TAG_NAME, "body").text
        check("nccl-ib-rdma-timeout" in body and d.find_element(By.CSS_SELECTOR, ".init-rank").text == "rank 3",
              "tarball upload: NCCL InfiniBand failure on rank 3")
        shot(d, "03-result-tarball")

        # the encyclopedia: browse, search, an entry, a related link
        d.get(base + "/kb")
        check(len(d.find_elements(By.CSS_SELECTOR, ".entry-row")) >= 50, "encyclopedia lists the entries")
        shot(d, "04-kb-index")
        box = d.find_element(By.CSS_SELECTOR, "form.search input[name=q]")
        box.send_keys("fallen off the bus")
        old = d.find_element(By.TAG_NAME, "html")
        box.submit()
        WebDriverWait(d, 60).until(EC.staleness_of(old))
        rows = d.find_elements(By.CSS_SELECTOR, ".entry-row a")
        check(rows and "xid-fallen-off-bus" in rows[0].get_attribute("href"), "search finds xid-fallen-off-bus first")
        shot(d, "05-kb-search")
        d.get(base + "/kb/cuda-oom")
        check(d.find_element(By.ID, "fix") is not None and "Code examples" in d.page_source, "entry page sections")
        boxes = d.find_elements(By.CSS_SELECTOR, "#confirm ul.checklist input[type=checkbox]")
        check(len(boxes) >= 2, "Confirm is a checklist of commands")
        if boxes:
            boxes[0].click()
            check(boxes[0].is_selected(), "a Confirm step can be ticked")
        refs = d.find_elements(By.CSS_SELECTOR, "#references ol.references a")
        check(len(refs) >= 1 and refs[0].get_attribute("href").startswith("https://"),
              "references listed apart, as links")
        shot(d, "06-kb-entry")
        rel = d.find_element(By.CSS_SELECTOR, "#related-entries a.related")
        target = rel.get_attribute("href")
        old = d.find_element(By.TAG_NAME, "html")
        rel.click()
        WebDriverWait(d, 60).until(EC.staleness_of(old))
        check(d.current_url == target and d.find_element(By.TAG_NAME, "h1").text != "CUDA out of memory",
              "related link opens the related entry")
        shot(d, "07-kb-related")
        d.get(base + "/kb/storage-io-error")
        alts = d.find_elements(By.CSS_SELECTOR, "#differential a.related")
        check(d.find_element(By.CSS_SELECTOR, "#differential h2").text == "Also consider when only these lines are present"
              and [a.get_attribute("href") for a in alts] == [base + "/kb/disk-full"],
              "entry page: its differential links disk-full")
        shot(d, "07b-kb-differential")

        # an XSS attempt in a log line is shown as text
        d.get(base + "/")
        evil = ("[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a "
                "total capacity of 79.10 GiB <script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">\n")
        paste(d, open("examples/torchrun-8rank-oom/train.log").read() + evil)
        check(d.execute_script("return window.__pwned === undefined"), "XSS: no script from the log ran")
        check("<script>window.__pwned=1</script>" in d.find_element(By.TAG_NAME, "body").text
              or "&lt;script&gt;" in d.page_source, "XSS: the markup is shown as text")
        check(not d.find_elements(By.CSS_SELECTOR, "main img"), "XSS: no image element from the log")
        shot(d, "08-xss-as-text")

        # History: sign in with a team token, diagnose, find the report again
        token = s.token("browser-team")
        d.get(base + "/history")
        d.find_element(By.ID, "token").send_keys(token)
        old = d.find_element(By.TAG_NAME, "html")
        d.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()
        WebDriverWait(d, 60).until(EC.staleness_of(old))
        check("Sign out" in d.page_source and "No diagnosis yet" in d.page_source, "history: signed in, empty")
        d.get(base + "/")
        paste(d, open("examples/torchrun-8rank-oom/train.log").read())
        d.get(base + "/history")
        rows = d.find_elements(By.CSS_SELECTOR, "table.history tbody tr")
        check(len(rows) == 1 and "cuda-oom" in rows[0].text, "history: the paste is listed")
        shot(d, "10-history")
        if rows:
            old = d.find_element(By.TAG_NAME, "html")
            rows[0].find_element(By.TAG_NAME, "a").click()
            WebDriverWait(d, 60).until(EC.staleness_of(old))
            check(d.find_element(By.CSS_SELECTOR, ".init-rank").text == "rank 3", "history: the report reopens")
    finally:
        d.quit()

    # JavaScript disabled: paste and result still work
    d = browser(js=False)
    try:
        d.get(s.url("/"))
        area = d.find_element(By.ID, "log")
        area.send_keys("[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 has a "
                       "total capacity of 79.10 GiB of which 1.62 GiB is free.\n")
        submit(d)
        check(d.find_element(By.CSS_SELECTOR, ".init-rank").text == "rank 2", "without JavaScript: result with rank 2")
        check(not d.find_element(By.CSS_SELECTOR, "button[data-copy=fix-code]").is_displayed(),
              "without JavaScript: copy buttons stay hidden")
        shot(d, "09-no-javascript")
    finally:
        d.quit()
        s.stop()
    print("screenshots in", SHOTS)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
