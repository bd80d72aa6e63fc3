// What the published-site figures are measured on (bench/published.mjs, test/published/lighthouse.test.ts):
// a content page like a handbook's (headings, prose, lists, a table, code in two languages, a
// hint, tabs) and a small OpenAPI spec whose operation pages have parameters, a body and responses.

export const contentMarkdown = `Acme's command line tool reads your project, checks it and publishes it. This page walks through installing it, writing a first configuration and running it in continuous integration.

{% hint style="info" %}
You need Node.js 20 or later. Check with \`node --version\`.
{% endhint %}

## Install

Install the tool globally with npm, or run it once with npx:

\`\`\`bash
npm install --global @acme/cli
acme --version
\`\`\`

{% tabs %}
{% tab title="macOS" %}
Homebrew works too: \`brew install acme\`.
{% endtab %}
{% tab title="Linux" %}
Use the npm package, or the \`.deb\` from the releases page.
{% endtab %}
{% endtabs %}

## Configure

The tool reads \`acme.config.js\` at the root of the project. A minimal file names the source folder and where the output goes:

\`\`\`javascript
export default {
  source: './docs',
  output: './dist',
  checks: { links: true, images: 'warn' },
};
\`\`\`

| Option | Type | Default | What it does |
| --- | --- | --- | --- |
| \`source\` | string | \`./docs\` | The folder of markdown files to read. |
| \`output\` | string | \`./dist\` | Where the built site is written. |
| \`checks.links\` | boolean | \`true\` | Fail the build on a broken link. |
| \`checks.images\` | \`'warn'\` or boolean | \`'warn'\` | What a missing image does. |

## Run in CI

1. Install the tool in the job.
2. Run \`acme check\` to find broken links and missing images.
3. Run \`acme build\` and upload \`dist/\`.

The exit code is 0 when everything passed, 1 when a check failed and 2 for bad input, so a pipeline can stop on the first problem.

### Caching

Keep \`~/.cache/acme\` between runs: a build reuses the pages that did not change and is several times faster.
`;

export const tinySpec = {
  openapi: '3.0.3',
  info: { title: 'Pet Store', version: '1.0.0', description: 'A small API for the figures.' },
  servers: [{ url: 'https://api.example.com/v1' }],
  tags: [{ name: 'pets', description: 'Everything about pets.' }],
  paths: {
    '/pets/{petId}': {
      get: {
        tags: ['pets'],
        operationId: 'getPet',
        summary: 'Get a pet',
        description: 'Returns one pet by its id.',
        parameters: [
          { name: 'petId', in: 'path', required: true, description: 'The id of the pet.', schema: { type: 'string' } },
          { name: 'fields', in: 'query', description: 'Which fields to return.', schema: { type: 'array', items: { type: 'string' } } },
        ],
        responses: {
          200: {
            description: 'The pet',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'name'],
                  properties: {
                    id: { type: 'string', example: 'p_123' },
                    name: { type: 'string', example: 'Rex' },
                    tag: { type: 'string' },
                    owner: { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } } },
                  },
                },
              },
            },
          },
          404: { description: 'No such pet' },
        },
      },
      put: {
        tags: ['pets'],
        operationId: 'updatePet',
        summary: 'Update a pet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, tag: { type: 'string' } } } } },
        },
        responses: { 200: { description: 'Updated' } },
      },
    },
  },
};
