// When an ACP turn that ended end_turn is the agent's question, and what
// of its last message is kept as the question.

#include "daemon/execution/observation_policy.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "shared/limits.hpp"

using namespace mission::daemon::execution;

TEST_CASE("an ACP turn ends on a question when its last message ends with a question mark") {
  CHECK(turn_ends_on_question("Which name should the file have?"));
  CHECK(turn_ends_on_question("Shall I go on?  \n"));
  CHECK(turn_ends_on_question("\xE5\x90\x8D\xE5\x89\x8D\xEF\xBC\x9F"));  // full-width
  CHECK_FALSE(turn_ends_on_question("Made it."));
  CHECK_FALSE(turn_ends_on_question("Is this right? I made it."));
  CHECK_FALSE(turn_ends_on_question(""));
  CHECK_FALSE(turn_ends_on_question(" \n"));
}

TEST_CASE("an ACP question keeps its end and is cut on a character's boundary") {
  CHECK(acp_question_text("  Which one?\n") == "Which one?");
  // Two-byte characters, one byte more than the bound: the cut would fall
  // inside the first one kept, which is dropped whole.
  std::string long_text;
  while (long_text.size() <= mission::limits::kMaxAcpQuestionBytes) long_text += "\xC3\xA9";
  long_text += "?";
  const std::string kept = acp_question_text(long_text);
  CHECK(kept.size() <= mission::limits::kMaxAcpQuestionBytes);
  CHECK(kept.size() >= mission::limits::kMaxAcpQuestionBytes - 1);
  CHECK(static_cast<unsigned char>(kept.front()) == 0xC3);
  CHECK(kept.back() == '?');
}
