// The simdjson side of Tools/simdjson-compare: reads the benchmark documents with simdjson's
// On-Demand API, every value jsonmodel-bench's models read, into the same checksum; or parses
// them with simdjson's DOM API, nothing read. Prints the checksum and the median CPU time of
// one run. Built and run by Tools/simdjson-compare/run; not part of the Swift package.
//
//   harness read|parse FILE [--seconds S] [--runs N]
//
// The kind of document comes from the file's name: twitter*, citm_catalog*, canada*, numbers*, bulk*
// (the records jsonmodel-bench's bulk section generates). Every checksum here mirrors one in
// Tools/jsonmodel-bench, and the run script reports a row as not measured when the two differ.

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace simdjson;

#define KERNEL_NAME_TEXT(kernel) #kernel
#define KERNEL_NAME(kernel) KERNEL_NAME_TEXT(kernel)

namespace {

// MARK: - Checksums

// Swift's `Int` arithmetic with `&*` and `&+`: wrapping, 64 bits.
using Word = uint64_t;

Word string_size(std::string_view s) { return Word(s.size()); }

/// DocumentSection.swift's `Fold`: value = value &* 31 &+ int, with strings folded as their
/// UTF-8 length plus their first byte (0 when empty), a missing string as -1, a double as its
/// bit pattern, an integer array as its count then its elements.
struct Fold {
  Word value = 0;
  void add(Word x) { value = value * 31 + x; }
  void add_int(int64_t x) { add(Word(x)); }
  void add(std::string_view s) { add(Word(s.size()) + Word(s.empty() ? 0 : uint8_t(s[0]))); }
  void add(const std::optional<std::string_view> &s) {
    if (s) { add(*s); } else { add_int(-1); }
  }
  void add(double d) {
    Word bits;
    std::memcpy(&bits, &d, sizeof bits);
    add(bits);
  }
  void add(const std::vector<int64_t> &ints) {
    add(Word(ints.size()));
    for (int64_t i : ints) { add_int(i); }
  }
};

// MARK: - Reading helpers

/// A string property declared `String?`: nil when null (a missing key is handled by the caller).
std::optional<std::string_view> optional_string(ondemand::value value) {
  if (value.is_null()) { return std::nullopt; }
  return std::string_view(value.get_string());
}

std::vector<int64_t> int_array(ondemand::value value) {
  std::vector<int64_t> ints;
  for (auto element : value.get_array()) { ints.push_back(int64_t(element.get_int64())); }
  return ints;
}

using Names = std::vector<std::pair<std::string_view, std::string_view>>;

/// A `[String: String]` property, its keys sorted as the Swift side sorts them (for ASCII and
/// for well-formed UTF-8 in NFC, byte order is Swift's `String` order).
Names string_dictionary(ondemand::value value) {
  Names names;
  for (auto field : value.get_object()) {
    std::string_view key = field.unescaped_key();
    names.emplace_back(key, std::string_view(field.value().get_string()));
  }
  std::sort(names.begin(), names.end(), [](auto &a, auto &b) { return a.first < b.first; });
  return names;
}

void fold_names(Fold &fold, const Names &names) {
  fold.add(Word(names.size()));
  for (auto &[key, name] : names) {
    fold.add(key);
    fold.add(name);
  }
}

// MARK: - citm_catalog.json (DocumentSection.swift, CitmCatalogFields.checksum)

struct CitmEvent {
  std::string_view key;
  int64_t id = 0;
  std::string_view name;
  std::optional<std::string_view> about, logo, subject_code, subtitle;
  std::vector<int64_t> sub_topic_ids, topic_ids;
};

struct CitmArea {
  int64_t area_id = 0;
  std::vector<int64_t> block_ids;
};

struct CitmSeatCategory {
  int64_t seat_category_id = 0;
  std::vector<CitmArea> areas;
};

struct CitmPrice {
  int64_t amount = 0, audience_sub_category_id = 0, seat_category_id = 0;
};

struct CitmPerformance {
  int64_t id = 0, event_id = 0, start = 0;
  std::optional<std::string_view> logo, name, seat_map_image;
  std::string_view venue_code;
  std::vector<CitmPrice> prices;
  std::vector<CitmSeatCategory> seat_categories;
};

CitmEvent read_event(std::string_view key, ondemand::object object) {
  CitmEvent event;
  event.key = key;
  for (auto field : object) {
    std::string_view name = field.unescaped_key();
    ondemand::value value = field.value();
    if (name == "description") { event.about = optional_string(value); }
    else if (name == "id") { event.id = value.get_int64(); }
    else if (name == "logo") { event.logo = optional_string(value); }
    else if (name == "name") { event.name = value.get_string(); }
    else if (name == "subTopicIds") { event.sub_topic_ids = int_array(value); }
    else if (name == "subjectCode") { event.subject_code = optional_string(value); }
    else if (name == "subtitle") { event.subtitle = optional_string(value); }
    else if (name == "topicIds") { event.topic_ids = int_array(value); }
  }
  return event;
}

CitmPerformance read_performance(ondemand::object object) {
  CitmPerformance performance;
  for (auto field : object) {
    std::string_view name = field.unescaped_key();
    ondemand::value value = field.value();
    if (name == "eventId") { performance.event_id = value.get_int64(); }
    else if (name == "id") { performance.id = value.get_int64(); }
    else if (name == "logo") { performance.logo = optional_string(value); }
    else if (name == "name") { performance.name = optional_string(value); }
    else if (name == "prices") {
      for (auto element : value.get_array()) {
        CitmPrice price;
        for (auto priceField : element.get_object()) {
          std::string_view priceName = priceField.unescaped_key();
          int64_t number = priceField.value().get_int64();
          if (priceName == "amount") { price.amount = number; }
          else if (priceName == "audienceSubCategoryId") { price.audience_sub_category_id = number; }
          else if (priceName == "seatCategoryId") { price.seat_category_id = number; }
        }
        performance.prices.push_back(price);
      }
    } else if (name == "seatCategories") {
      for (auto element : value.get_array()) {
        CitmSeatCategory category;
        for (auto categoryField : element.get_object()) {
          std::string_view categoryName = categoryField.unescaped_key();
          if (categoryName == "seatCategoryId") {
            category.seat_category_id = categoryField.value().get_int64();
          } else if (categoryName == "areas") {
            for (auto areaElement : categoryField.value().get_array()) {
              CitmArea area;
              for (auto areaField : areaElement.get_object()) {
                std::string_view areaName = areaField.unescaped_key();
                if (areaName == "areaId") { area.area_id = areaField.value().get_int64(); }
                else if (areaName == "blockIds") { area.block_ids = int_array(areaField.value()); }
              }
              category.areas.push_back(std::move(area));
            }
          }
        }
        performance.seat_categories.push_back(std::move(category));
      }
    } else if (name == "seatMapImage") { performance.seat_map_image = optional_string(value); }
    else if (name == "start") { performance.start = value.get_int64(); }
    else if (name == "venueCode") { performance.venue_code = value.get_string(); }
  }
  return performance;
}

int64_t citm_checksum(ondemand::parser &parser, const padded_string &json) {
  ondemand::document document = parser.iterate(json);
  Names areaNames, audienceSubCategoryNames, blockNames, seatCategoryNames, subTopicNames, subjectNames,
      topicNames, venueNames;
  std::vector<CitmEvent> events;
  std::vector<CitmPerformance> performances;
  std::vector<std::pair<std::string_view, std::vector<int64_t>>> topicSubTopics;
  for (auto field : document.get_object()) {
    std::string_view name = field.unescaped_key();
    ondemand::value value = field.value();
    if (name == "areaNames") { areaNames = string_dictionary(value); }
    else if (name == "audienceSubCategoryNames") { audienceSubCategoryNames = string_dictionary(value); }
    else if (name == "blockNames") { blockNames = string_dictionary(value); }
    else if (name == "events") {
      for (auto eventField : value.get_object()) {
        std::string_view key = eventField.unescaped_key();
        events.push_back(read_event(key, eventField.value().get_object()));
      }
    } else if (name == "performances") {
      for (auto element : value.get_array()) { performances.push_back(read_performance(element.get_object())); }
    } else if (name == "seatCategoryNames") { seatCategoryNames = string_dictionary(value); }
    else if (name == "subTopicNames") { subTopicNames = string_dictionary(value); }
    else if (name == "subjectNames") { subjectNames = string_dictionary(value); }
    else if (name == "topicNames") { topicNames = string_dictionary(value); }
    else if (name == "topicSubTopics") {
      for (auto topicField : value.get_object()) {
        std::string_view key = topicField.unescaped_key();
        topicSubTopics.emplace_back(key, int_array(topicField.value()));
      }
    } else if (name == "venueNames") { venueNames = string_dictionary(value); }
  }

  Fold fold;
  for (const Names *names : {&areaNames, &audienceSubCategoryNames, &blockNames, &seatCategoryNames,
                             &subTopicNames, &subjectNames, &topicNames, &venueNames}) {
    fold_names(fold, *names);
  }
  std::sort(events.begin(), events.end(), [](auto &a, auto &b) { return a.key < b.key; });
  for (const CitmEvent &event : events) {
    fold.add(event.key);
    fold.add_int(event.id);
    fold.add(event.name);
    fold.add(event.about);
    fold.add(event.logo);
    fold.add(event.subject_code);
    fold.add(event.subtitle);
    fold.add(event.sub_topic_ids);
    fold.add(event.topic_ids);
  }
  for (const CitmPerformance &performance : performances) {
    fold.add_int(performance.id);
    fold.add_int(performance.event_id);
    fold.add(performance.logo);
    fold.add(performance.name);
    fold.add(performance.seat_map_image);
    fold.add_int(performance.start);
    fold.add(performance.venue_code);
    for (const CitmPrice &price : performance.prices) {
      fold.add_int(price.amount);
      fold.add_int(price.audience_sub_category_id);
      fold.add_int(price.seat_category_id);
    }
    for (const CitmSeatCategory &category : performance.seat_categories) {
      fold.add_int(category.seat_category_id);
      for (const CitmArea &area : category.areas) {
        fold.add_int(area.area_id);
        fold.add(area.block_ids);
      }
    }
  }
  std::sort(topicSubTopics.begin(), topicSubTopics.end(), [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &[key, ids] : topicSubTopics) {
    fold.add(key);
    fold.add(ids);
  }
  return int64_t(fold.value);
}

// MARK: - numbers.json (DocumentSection.swift, NumberList.checksum)

int64_t numbers_checksum(ondemand::parser &parser, const padded_string &json) {
  ondemand::document document = parser.iterate(json);
  Fold fold;
  for (auto number : document.get_array()) { fold.add(double(number.get_double())); }
  return int64_t(fold.value);
}

// MARK: - canada.json (DocumentSection.swift, CanadaCollection.checksum)

/// One ring of a polygon: its point count and every coordinate in order.
struct CanadaRing {
  Word points = 0;
  std::vector<double> coordinates;
};

struct CanadaFeature {
  std::string_view type, name, geometry_type;
  std::vector<CanadaRing> rings;
};

void read_geometry(ondemand::object geometry, CanadaFeature &feature) {
  for (auto field : geometry) {
    std::string_view name = field.unescaped_key();
    if (name == "type") {
      feature.geometry_type = field.value().get_string();
    } else if (name == "coordinates") {
      for (auto ringValue : field.value().get_array()) {
        CanadaRing ring;
        for (auto point : ringValue.get_array()) {
          ring.points += 1;
          for (auto coordinate : point.get_array()) { ring.coordinates.push_back(double(coordinate.get_double())); }
        }
        feature.rings.push_back(std::move(ring));
      }
    }
  }
}

int64_t canada_checksum(ondemand::parser &parser, const padded_string &json) {
  ondemand::document document = parser.iterate(json);
  std::string_view type;
  std::vector<CanadaFeature> features;
  for (auto field : document.get_object()) {
    std::string_view name = field.unescaped_key();
    if (name == "type") {
      type = field.value().get_string();
    } else if (name == "features") {
      for (auto element : field.value().get_array()) {
        CanadaFeature feature;
        for (auto featureField : element.get_object()) {
          std::string_view featureName = featureField.unescaped_key();
          if (featureName == "type") {
            feature.type = featureField.value().get_string();
          } else if (featureName == "properties") {
            feature.name = featureField.value()["name"].get_string();
          } else if (featureName == "geometry") {
            read_geometry(featureField.value().get_object(), feature);
          }
        }
        features.push_back(std::move(feature));
      }
    }
  }
  Fold fold;
  fold.add(type);
  for (const CanadaFeature &feature : features) {
    fold.add(feature.type);
    fold.add(feature.name);
    fold.add(feature.geometry_type);
    for (const CanadaRing &ring : feature.rings) {
      fold.add(ring.points);
      for (double coordinate : ring.coordinates) { fold.add(coordinate); }
    }
  }
  return int64_t(fold.value);
}

// MARK: - twitter.json (ModelSection.swift, StatusSubset.fold)

/// The sum of every status's fold: ids, counts and the UTF-8 lengths of the strings; a missing
/// `in_reply_to_status_id` or `lang` (null) adds 0.
int64_t twitter_checksum(ondemand::parser &parser, const padded_string &json) {
  ondemand::document document = parser.iterate(json);
  Word sum = 0;
  for (auto status : document["statuses"].get_array()) {
    for (auto field : status.get_object()) {
      std::string_view name = field.unescaped_key();
      ondemand::value value = field.value();
      if (name == "id") { sum += Word(int64_t(value.get_int64())); }
      else if (name == "text" || name == "created_at" || name == "source") { sum += string_size(value.get_string()); }
      else if (name == "in_reply_to_status_id") {
        if (!value.is_null()) { sum += Word(int64_t(value.get_int64())); }
      } else if (name == "user") {
        for (auto userField : value.get_object()) {
          std::string_view userName = userField.unescaped_key();
          if (userName == "id" || userName == "followers_count") {
            sum += Word(int64_t(userField.value().get_int64()));
          } else if (userName == "name" || userName == "screen_name") {
            sum += string_size(userField.value().get_string());
          }
        }
      } else if (name == "retweet_count" || name == "favorite_count") { sum += Word(int64_t(value.get_int64())); }
      else if (name == "favorited") { sum += bool(value.get_bool()) ? 1 : 0; }
      else if (name == "lang") {
        if (auto language = optional_string(value)) { sum += string_size(*language); }
      }
    }
  }
  return int64_t(sum);
}

// MARK: - generated bulk records (BulkSection.swift, BulkWorkload.lazyAll)

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = unsigned(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + int64_t(doe) - 719468;
}

/// Seconds since 1970 of an ISO 8601 UTC timestamp `YYYY-MM-DDTHH:MM:SSZ`, the form the bulk
/// generator writes; the process stops on any other.
int64_t iso8601_seconds(std::string_view text) {
  auto digits = [&](size_t at, size_t count) {
    int64_t value = 0;
    for (size_t i = at; i < at + count; i++) {
      if (text[i] < '0' || text[i] > '9') { throw std::runtime_error("not an ISO 8601 date"); }
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':' || text[19] != 'Z') {
    throw std::runtime_error("not an ISO 8601 date");
  }
  int64_t days = days_from_civil(digits(0, 4), unsigned(digits(5, 2)), unsigned(digits(8, 2)));
  return days * 86400 + digits(11, 2) * 3600 + digits(14, 2) * 60 + digits(17, 2);
}

int64_t bulk_checksum(ondemand::parser &parser, const padded_string &json) {
  ondemand::document document = parser.iterate(json);
  Word sum = 0;
  for (auto element : document.get_array()) {
    for (auto field : element.get_object()) {
      std::string_view name = field.unescaped_key();
      ondemand::value value = field.value();
      if (name == "id" || name == "age") { sum += Word(int64_t(value.get_int64())); }
      else if (name == "name") { sum += string_size(value.get_string()); }
      else if (name == "score" || name == "balance") { sum += Word(int64_t(double(value.get_double()))); }
      else if (name == "active") { sum += bool(value.get_bool()) ? 1 : 0; }
      else if (name == "created_at") {
        if (auto text = optional_string(value)) { sum += Word(iso8601_seconds(*text)); }
      } else if (name == "tags") {
        // Every tag is read as a string, as the Swift side builds a [String]; its count is folded.
        Word count = 0;
        for (auto tag : value.get_array()) {
          std::string_view text = tag.get_string();
          (void)text;
          count += 1;
        }
        sum += count;
      } else if (name == "address") {
        for (auto addressField : value.get_object()) {
          std::string_view addressName = addressField.unescaped_key();
          if (addressName == "street" || addressName == "city" || addressName == "zip") {
            sum += string_size(addressField.value().get_string());
          }
        }
      }
    }
  }
  return int64_t(sum);
}

// MARK: - DOM parse (ParseSection.swift, JSONDocument.valueCount)

/// The number of values in a DOM element, object keys not counted: what jsonmodel-bench's
/// parse child reports as JSONDocument.valueCount.
int64_t value_count(dom::element element) {
  int64_t count = 1;
  switch (element.type()) {
  case dom::element_type::ARRAY:
    for (dom::element child : dom::array(element)) { count += value_count(child); }
    break;
  case dom::element_type::OBJECT:
    for (dom::key_value_pair pair : dom::object(element)) { count += value_count(pair.value); }
    break;
  default:
    break;
  }
  return count;
}

// MARK: - Timing

double cpu_seconds() {
  timespec time;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
  return double(time.tv_sec) + double(time.tv_nsec) * 1e-9;
}

/// Warms up for at least 3 runs and a tenth of `seconds`, then times at least `minimumRuns`
/// runs and about `seconds` of CPU time; returns the median seconds of one run.
template <typename Body> double median_seconds(Body body, double seconds, int minimumRuns) {
  int warmUps = 0;
  double warmUpStart = cpu_seconds();
  while (warmUps < 3 || cpu_seconds() - warmUpStart < seconds / 10) {
    body();
    warmUps += 1;
  }
  std::vector<double> samples;
  double start = cpu_seconds();
  while (int(samples.size()) < minimumRuns || cpu_seconds() - start < seconds) {
    double before = cpu_seconds();
    body();
    samples.push_back(cpu_seconds() - before);
  }
  std::sort(samples.begin(), samples.end());
  size_t middle = samples.size() / 2;
  return samples.size() % 2 == 0 ? (samples[middle - 1] + samples[middle]) / 2 : samples[middle];
}

int usage() {
  std::fprintf(stderr, "usage: harness read|parse FILE [--seconds S] [--runs N]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) { return usage(); }
  std::string mode = argv[1];
  std::string path = argv[2];
  double seconds = 0.3;
  int minimumRuns = 11;
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string option = argv[i];
    if (option == "--seconds") { seconds = std::atof(argv[i + 1]); }
    else if (option == "--runs") { minimumRuns = std::atoi(argv[i + 1]); }
    else { return usage(); }
  }
  std::string name = path.substr(path.find_last_of('/') + 1);

  padded_string json;
  if (auto error = padded_string::load(path).get(json)) {
    std::fprintf(stderr, "harness: cannot read %s: %s\n", path.c_str(), error_message(error));
    return 1;
  }

  try {
    int64_t checksum = 0;
    double median = 0;
    if (mode == "read") {
      int64_t (*read)(ondemand::parser &, const padded_string &) = nullptr;
      if (name.rfind("twitter", 0) == 0) { read = twitter_checksum; }
      else if (name.rfind("citm_catalog", 0) == 0) { read = citm_checksum; }
      else if (name.rfind("canada", 0) == 0) { read = canada_checksum; }
      else if (name.rfind("numbers", 0) == 0) { read = numbers_checksum; }
      else if (name.rfind("bulk", 0) == 0) { read = bulk_checksum; }
      else {
        std::fprintf(stderr, "harness: no reader for %s\n", name.c_str());
        return 1;
      }
      // One parser for every run, as simdjson's documentation recommends: its buffers are reused.
      ondemand::parser parser;
      checksum = read(parser, json);
      volatile int64_t sink = 0;
      median = median_seconds([&] { sink = sink + read(parser, json); }, seconds, minimumRuns);
      // On-Demand runs the kernel chosen when this file is compiled, from the target's flags;
      // builtin_implementation() would name the one chosen when libsimdjson was compiled.
      std::printf("simdjson-implementation %s\n", KERNEL_NAME(SIMDJSON_BUILTIN_IMPLEMENTATION));
    } else if (mode == "parse") {
      dom::parser parser;
      checksum = value_count(parser.parse(json));
      volatile size_t sink = 0;
      median = median_seconds(
          [&] {
            dom::element root = parser.parse(json);
            sink = sink + size_t(root.type());
          },
          seconds, minimumRuns);
      // The DOM parser runs the kernel libsimdjson picks at run time for this processor.
      std::printf("simdjson-implementation %s\n", get_active_implementation()->name().c_str());
    } else {
      return usage();
    }
    std::printf("simdjson-checksum %lld\n", (long long)checksum);
    std::printf("simdjson-seconds %.9g\n", median);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "harness: %s: %s\n", name.c_str(), error.what());
    return 1;
  }
  return 0;
}
