import type { TableSpec } from './port.js';

// Bytes kept beside the shards, in folders of the data directory (or of `--blobs` with
// PostgreSQL), named by what the rows that reference them hold. Which rows reference which file
// is said once, on the table's spec (`TableSpec.blobs`, src/store/tables.ts), and read here by
// everything that must know: `docs doctor` (a file no row names is an orphan, a file a row names
// must be there), its `--repair` (never moves a referenced file), backup and restore (through
// the doctor). The writers use the same paths (src/content/blobs.ts, src/openapi/content-files.ts).
//
//   files/<sha[0:2]>/<sha>           uploaded file bytes, by SHA-256 (revisions' `files[].sha`)
//   openapi/<spec>/<version>.json    parsed documents of an OpenAPI version (openapiVersions rows)
//   openapi/<spec>/<version>.raw     its entrypoint's text as submitted (rows with `rawFormat`)
//   pdf/<key[0:2]>/<key>.pdf         rendered PDFs: a cache derived from revisions, named by no row

/** The folders holding referenced bytes, whose files no row names are orphans. */
export const REFERENCED_FOLDERS = ['files', 'openapi'] as const;

const SHA = /^[0-9a-f]{64}$/;
/** Relative path of an uploaded file's bytes. */
export const blobFile = (sha: string) => `files/${sha.slice(0, 2)}/${sha}`;
/** Relative path of an OpenAPI version's parsed documents. */
export const openapiFile = (spec: string, version: string) => `openapi/${spec}/${version}.json`;

/** Revisions list their files (change requests' revisions, merges and translations alike). */
export const revisionBlobs = (row: any): string[] =>
  Array.isArray(row?.files) ? row.files.filter((f: any) => typeof f?.sha === 'string' && SHA.test(f.sha)).map((f: any) => blobFile(f.sha)) : [];

/** Relative path of an OpenAPI version's entrypoint text, as submitted (getLatestOpenAPISpecVersionContentRaw). */
export const openapiRawFile = (spec: string, version: string) => `openapi/${spec}/${version}.raw`;

/** An OpenAPI version names the file of its parsed documents, and of its raw text when it kept one. */
export const openapiVersionBlobs = (row: any): string[] =>
  typeof row?.spec === 'string' && typeof row?.id === 'string'
    ? [openapiFile(row.spec, row.id), ...(typeof row.rawFormat === 'string' ? [openapiRawFile(row.spec, row.id)] : [])]
    : [];

/** A custom font names the file of each of its faces (docs/manual/site-delivery.md#custom-fonts). */
export const fontBlobs = (row: any): string[] =>
  Array.isArray(row?.faces) ? row.faces.filter((f: any) => typeof f?.sha === 'string' && SHA.test(f.sha)).map((f: any) => blobFile(f.sha)) : [];

/** An upload slot names its file once the bytes came. */
export const uploadBlobs = (row: any): string[] => (typeof row?.sha === 'string' && SHA.test(row.sha) ? [blobFile(row.sha)] : []);

/** The files (relative to the data directory) that `row` of `spec` references. */
export const blobsOf = (spec: TableSpec | undefined, row: unknown): string[] => (spec?.blobs ? spec.blobs(row) : []);
