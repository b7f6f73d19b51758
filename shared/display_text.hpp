#pragma once
// Text as a terminal shows it: UTF-8 measured in display columns (CJK and
// most emoji take two, combining marks none), cut and wrapped on grapheme
// boundaries, and text from an agent made harmless first. Built on utf8proc.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mission::text {

enum class Newlines { fold, keep };

// `text` with nothing left that a terminal would act on: escape sequences
// (CSI, OSC, DCS and the rest) removed, other C0 controls, DEL and the C1
// controls shown in caret notation ("^G"), bidirectional overrides and
// invalid UTF-8 replaced by U+FFFD, tabs and carriage returns as a space.
// Newlines become a space with `fold`, and stay with `keep`.
std::string neutralised(std::string_view text, Newlines newlines = Newlines::fold);

// `text` made into keys that can type nothing but themselves, for text an
// agent sends to another one's terminal or stdin: C0 controls, DEL and the
// C1 controls (U+0080 to U+009F) shown as `cat -v` shows them ("^C", "^?",
// "M-^["), tabs, carriage returns and newlines as a space (one line),
// invalid UTF-8 as U+FFFD. Nothing a terminal's line discipline, a shell or
// a program's key handling acts on is left.
std::string inert_keys(std::string_view text);

// Columns `text` takes on a terminal: the width of each grapheme cluster (its
// widest code point), 0 for controls. Meant for neutralised text.
std::size_t display_width(std::string_view text);

// The longest prefix of `text` that fits in `columns`, cut between grapheme
// clusters (a wide character that would straddle the edge is left out).
std::string cut(std::string_view text, std::size_t columns);

// `text` in at most `columns`, its middle elided with "..." when longer: both
// the start and the end (a file name) stay readable.
std::string elide_middle(std::string_view text, std::size_t columns);

// `text` in at most `columns`, its end replaced by "..." when longer.
std::string elide_end(std::string_view text, std::size_t columns);

// `text` broken into lines of at most `columns` at spaces, a word longer
// than a line broken inside it; a "\n" always ends a line. Never empty.
std::vector<std::string> wrap(std::string_view text, std::size_t columns);

}  // namespace mission::text
