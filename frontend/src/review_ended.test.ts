import { describe, expect, it } from "vitest";
import { reviewEnded } from "./review_ended";

const st = (publish: string, state: string, message?: string) => ({ spec: { publish } as never, state: state as never, message });

describe("reviewEnded", () => {
  it("a discarded review has nothing to resume or retry", () => {
    expect(reviewEnded(st("review", "cancelled", "discarded 3 staged versions"))).toMatch(/^Discarded \(discarded 3 staged versions\)\. Nothing to resume or retry/);
  });
  it("a rolled-back review has nothing to resume or retry", () => {
    expect(reviewEnded(st("review", "rolled_back", "rolled back 3 partitions"))).toMatch(/^Rolled back/);
  });
  it("a review backfill cancelled while it ran may be resumed", () => {
    expect(reviewEnded(st("review", "cancelled", "cancelled by the user"))).toBeUndefined();
  });
  it("other backfills are not reviews", () => {
    expect(reviewEnded(st("partition", "cancelled", "discarded 3 staged versions"))).toBeUndefined();
    expect(reviewEnded(st("atomic", "rolled_back"))).toBeUndefined();
  });
});
