import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'importGitRepository',
  description:
    "Replace a space's content with a Git commit's (SUMMARY.md, or a Docusaurus, MkDocs or Mintlify layout): a local repository under the server's --git-root, or an http(s) Git server",
  examples: [
    '<%= config.bin %> spaces git import dHD9ZmkOPnfy9hWCsaQB --url handbook --ref refs/heads/main',
    '<%= config.bin %> spaces git import dHD9ZmkOPnfy9hWCsaQB --url https://git.example.com/docs.git --ref main --standalone',
  ],
  choose: { spaceId: chooseSpace },
  done: 'Imported.',
});
