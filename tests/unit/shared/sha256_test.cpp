#include "shared/sha256.hpp"

#include <catch2/catch.hpp>
#include <cctype>
#include <string>
#include <vector>

#include "shared/session_token.hpp"

namespace {

std::string sha256_hex(std::string_view data) {
  return mission::to_hex(mission::sha256(data));
}

}  // namespace

TEST_CASE("SHA-256 matches the NIST example vectors", "[sha256]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256 pads correctly around the block boundary", "[sha256]") {
  // Expected values from `printf 'a%.0s' $(seq N) | sha256sum`. 55 bytes is
  // the longest tail that fits the padding in one block; 56 spills into a
  // second; 64 and 65 cross a whole block.
  CHECK(sha256_hex(std::string(55, 'a')) ==
        "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(sha256_hex(std::string(56, 'a')) ==
        "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(sha256_hex(std::string(63, 'a')) ==
        "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
  CHECK(sha256_hex(std::string(64, 'a')) ==
        "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  CHECK(sha256_hex(std::string(65, 'a')) ==
        "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
}

TEST_CASE("to_hex writes two lowercase digits per byte", "[sha256]") {
  std::vector<std::uint8_t> bytes = {0x00, 0x0a, 0xff, 0x5c};
  CHECK(mission::to_hex(bytes) == "000aff5c");
  CHECK(mission::to_hex({}) == "");
}

TEST_CASE("session tokens are 64 lowercase hex digits and differ", "[sha256]") {
  std::string first = mission::generate_session_token();
  std::string second = mission::generate_session_token();
  CHECK(first.size() == 2 * mission::kSessionTokenBytes);
  CHECK(first.size() == 64);
  for (char c : first) {
    INFO(first);
    CHECK((std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f')));
  }
  CHECK(first != second);
}

TEST_CASE("token digests match only the same token", "[sha256]") {
  std::string token = mission::generate_session_token();
  mission::Sha256Digest stored = mission::token_digest(token);
  CHECK(stored == mission::sha256(token));

  CHECK(mission::digest_matches(stored, mission::token_digest(token)));
  std::string other = token;
  other.back() = other.back() == '0' ? '1' : '0';
  CHECK_FALSE(mission::digest_matches(stored, mission::token_digest(other)));

  mission::Sha256Digest flipped_last = stored;
  flipped_last.back() ^= 0x01;
  CHECK_FALSE(mission::digest_matches(stored, flipped_last));

  std::span<const std::uint8_t> short_stored(stored.data(), stored.size() - 1);
  CHECK_FALSE(mission::digest_matches(short_stored, stored));
  std::vector<std::uint8_t> long_stored(stored.begin(), stored.end());
  long_stored.push_back(0);
  CHECK_FALSE(mission::digest_matches(long_stored, stored));
  CHECK_FALSE(mission::digest_matches({}, stored));
}
