import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'exportToGitRepository',
  description: "Write a space's content as a commit (SUMMARY.md, README.md, the pages, its files) on a branch of a Git repository",
  examples: [
    "<%= config.bin %> spaces git export dHD9ZmkOPnfy9hWCsaQB --url handbook --ref refs/heads/docs --commit-message 'Docs from the space'",
    "<%= config.bin %> spaces git export dHD9ZmkOPnfy9hWCsaQB --url https://git.example.com/docs.git --ref main --commit-message 'Sync' --force",
  ],
  choose: { spaceId: chooseSpace },
  done: 'Exported.',
});
