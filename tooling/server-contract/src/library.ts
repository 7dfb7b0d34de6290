/**
 * The contract's own small service, written with the `@anvil/core/codegen`
 * builders as generated code would be: a shelf of books with labels, query
 * parameters, headers and a payload for the REST protocols (the RPC
 * protocols put every member in the body), a modeled error, a
 * ValidationException, a blob, a timestamp, a long and a big integer.
 */
import { errorClass, type ServiceSchema } from "@anvil/core";
import { bigInteger, blob, integer, list, long, member, operation, service, string, struct, timestamp } from "@anvil/core/codegenv1";
import type { HandlerContext, ServiceHandler } from "@anvil/server";

/** A book as stored and answered. */
export type Book = {
  shelf: string;
  bookId: string;
  title: string;
  edition?: number;
  requestId?: string;
  publishedAt?: Date;
  isbn?: bigint;
  /** A long: a number while it is a safe integer, a bigint beyond. */
  copies?: number | bigint;
  cover?: Uint8Array;
};

const ValidationExceptionField = struct("smithy.framework#ValidationExceptionField", [
  member("path", string, { required: true }),
  member("message", string, { required: true }),
]);
/** `smithy.framework#ValidationException`, as the model declares it. */
export const ValidationException = struct<{ message: string; fieldList?: { path: string; message: string }[] }>(
  "smithy.framework#ValidationException",
  [
    member("message", string, { required: true }),
    member("fieldList", list("smithy.framework#ValidationExceptionFieldList", member("member", ValidationExceptionField))),
  ],
  { error: "client" },
);

/** The modeled error of `getBook`. */
export const NoSuchBook = struct<{ message?: string; bookId?: string }>("example.library#NoSuchBook", [member("message", string), member("bookId", string)], {
  error: "client",
  httpError: 404,
});

const bookMembers = [
  member("title", string, { required: true, length: { min: 1, max: 64 } }),
  member("publishedAt", timestamp),
  member("isbn", bigInteger),
  member("copies", long),
  member("cover", blob),
];

const PutBook = operation("example.library#PutBook", {
  input: struct<Omit<Book, "edition"> & { edition?: number }>("example.library#PutBookInput", [
    member("shelf", string, { required: true, httpLabel: true, length: { max: 16 } }),
    member("bookId", string, { required: true, httpLabel: true }),
    member("edition", integer, { httpQuery: "edition", range: { min: 1, max: 99 } }),
    member("requestId", string, { httpHeader: "x-request-id" }),
    ...bookMembers,
  ]),
  output: struct<Book>("example.library#PutBookOutput", [
    member("shelf", string, { required: true }),
    member("bookId", string, { required: true }),
    member("edition", integer),
    member("requestId", string, { httpHeader: "x-request-id" }),
    ...bookMembers,
  ]),
  traits: { http: { method: "PUT", uri: "/shelves/{shelf}/books/{bookId}", code: 200 } },
});

const GetBook = operation("example.library#GetBook", {
  input: struct<{ shelf: string; bookId: string }>("example.library#GetBookInput", [
    member("shelf", string, { required: true, httpLabel: true }),
    member("bookId", string, { required: true, httpLabel: true }),
  ]),
  output: struct<Book>("example.library#GetBookOutput", [
    member("shelf", string, { required: true }),
    member("bookId", string, { required: true }),
    member("edition", integer),
    ...bookMembers,
  ]),
  errors: [NoSuchBook],
  traits: { http: { method: "GET", uri: "/shelves/{shelf}/books/{bookId}", code: 200 }, readonly: true },
});

const GetCover = operation("example.library#GetCover", {
  input: struct<{ bookId: string }>("example.library#GetCoverInput", [member("bookId", string, { required: true, httpLabel: true })]),
  output: struct<{ data?: Uint8Array }>("example.library#GetCoverOutput", [member("data", blob, { httpPayload: true })]),
  errors: [NoSuchBook],
  traits: { http: { method: "GET", uri: "/covers/{bookId}", code: 200 } },
});

const Crash = operation("example.library#Crash", {
  input: struct("example.library#CrashInput", []),
  output: struct("example.library#CrashOutput", []),
  traits: { http: { method: "POST", uri: "/crash", code: 200 } },
});

const operations = { putBook: PutBook, getBook: GetBook, getCover: GetCover, crash: Crash };

/** The library service declaring one protocol (the contract runs each protocol on its own). */
export function library(protocol: string): ServiceSchema<typeof operations> {
  return service("example.library#Library", { version: "2026-01-01", operations, protocols: [protocol], errors: [ValidationException] });
}

/** What the crash handler throws: nothing of it may reach the caller. */
export const SECRET = "db password hunter2";

/** In-memory handlers for the library. */
export function libraryHandlers(): ServiceHandler<ReturnType<typeof library>> & { readonly contexts: HandlerContext[] } {
  const books = new Map<string, Book>();
  const contexts: HandlerContext[] = [];
  const NoSuchBookError = errorClass(NoSuchBook);
  const find = (bookId: string): Book => {
    for (const book of books.values()) if (book.bookId === bookId) return book;
    throw new NoSuchBookError({ message: `no book ${bookId}`, bookId });
  };
  return {
    contexts,
    putBook(input, context) {
      contexts.push(context);
      const book = { ...input } as Book;
      books.set(`${input.shelf}/${input.bookId}`, book);
      return book;
    },
    getBook(input) {
      const book = books.get(`${input.shelf}/${input.bookId}`);
      if (book === undefined) throw new NoSuchBookError({ message: `no book ${input.bookId} on ${input.shelf}`, bookId: input.bookId });
      const { requestId: _requestId, ...rest } = book;
      return rest;
    },
    getCover(input) {
      const cover = find(input.bookId).cover;
      return cover === undefined ? {} : { data: cover };
    },
    crash() {
      throw new Error(SECRET);
    },
  };
}
