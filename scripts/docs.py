"""Write docs/rules/<CODE>.md from each rule's explanation (its module docstring).

    python scripts/docs.py          # rewrite the pages
    python scripts/docs.py --check  # exit 1 if a page is out of date
"""
import sys
from pathlib import Path

from nnsight_lint import rules

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def main(check: bool) -> int:
    stale = []
    for code in rules.RULES:
        page, text = DOCS / f"{code}.md", rules.explanation(code)
        if not page.exists() or page.read_text(encoding="utf-8") != text:
            stale.append(page)
            if not check:
                page.parent.mkdir(parents=True, exist_ok=True)
                page.write_text(text, encoding="utf-8")
    for page in stale:
        print(f"{'stale' if check else 'wrote'}: {page}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv))
