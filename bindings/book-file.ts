// Reads an opening book file of either format: an evolutionary book by its header, a
// Polyglot book otherwise.

import { PolyglotBook } from "./book-polyglot.js";
import { EvolutionaryBook } from "./book-evolutionary.js";

/** The book in a file's bytes; throws a BookError naming the defect. */
export function readBook(bytes: Uint8Array): PolyglotBook | EvolutionaryBook {
  if (!(bytes instanceof Uint8Array)) throw new TypeError("a book file must be a Uint8Array");
  return EvolutionaryBook.recognises(bytes) ? EvolutionaryBook.fromBytes(bytes) : PolyglotBook.fromBytes(bytes);
}
