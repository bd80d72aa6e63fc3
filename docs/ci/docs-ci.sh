#!/bin/sh
# The docs job of a CI pipeline, in plain shell (GitHub Actions, GitLab CI, Jenkins, a cron job):
#   on a pull request: check the folder, then a dry run of the push (what would change, nothing
#   changed; exit 5 when merging it would conflict);
#   on a merge to the main branch: check the folder, then push it and merge the change request.
# test/e2e/ci-recipe.test.ts runs this script against a server on loopback.
#
# Environment:
#   DOCS_API_URL, DOCS_TOKEN  the server and a token that may edit the space
#   DOCS_SPACE                the space's id
#   DOCS_DIR                  the docs folder (default: docs; a .gitbook.yaml in it is read)
#   DOCS_EVENT                pull_request or push (default: push)
#   DOCS_FORMAT               the check's output: text, github (annotations) or junit (default: text)
#   DOCS_MESSAGE              the change request's subject on push (default: Publish from CI)
# Exit status: 0 done; 1 the check found a problem (nothing sent); 2 bad input (nothing sent);
#   4 not allowed; 5 a conflict (the change request is left open, not merged).
set -eu
dir="${DOCS_DIR:-docs}"
: "${DOCS_SPACE:?DOCS_SPACE: the space to publish to}"

docs content check "$dir" --format "${DOCS_FORMAT:-text}"

if [ "${DOCS_EVENT:-push}" = pull_request ]; then
  docs content push "$dir" --space "$DOCS_SPACE" --merge --dry-run
else
  docs content push "$dir" --space "$DOCS_SPACE" --merge --message "${DOCS_MESSAGE:-Publish from CI}"
fi
