"""The token buckets behind the rate limits, on a clock the test moves."""

from __future__ import annotations

import pytest

from kismet_dice.web.ratelimit import Buckets, Limiter, Rate, TooMany


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_a_burst_then_one_request_per_share_of_the_period() -> None:
    clock = Clock()
    buckets = Buckets(Rate(3, 60.0), clock)
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(20.0)
    clock.now += 5
    assert buckets.take("a") == pytest.approx(15.0)  # a refused request takes nothing
    clock.now += 15
    assert buckets.take("a") == 0.0
    assert buckets.take("a") == pytest.approx(20.0)


def test_each_client_has_its_own_bucket() -> None:
    buckets = Buckets(Rate(1, 60.0), Clock())
    assert buckets.take("a") == 0.0 and buckets.take("a") > 0
    assert buckets.take("b") == 0.0


def test_a_bucket_never_holds_more_than_its_burst() -> None:
    clock = Clock()
    buckets = Buckets(Rate(2, 60.0), clock)
    buckets.take("a")
    clock.now += 3600
    assert [buckets.take("a") == 0.0 for _ in range(3)] == [True, True, False]


def test_the_limiter_says_when_to_try_again_in_whole_seconds() -> None:
    clock = Clock()
    limiter = Limiter(Rate(1, 10.0), None, clock)
    limiter.new_game("a")
    clock.now += 0.5
    with pytest.raises(TooMany, match="too many new games from this address; try again in 10 s") as over:
        limiter.new_game("a")
    assert over.value.headers == {"Retry-After": "10"}
    for _ in range(1000):
        limiter.action("a")  # no rate: no limit


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("10/min", Rate(10, 60.0)),
        ("2/s", Rate(2, 1.0)),
        ("100 / hour", Rate(100, 3600.0)),
        ("5/10s", Rate(5, 10.0)),
    ],
)
def test_rates_are_read_as_written(text: str, rate: Rate) -> None:
    assert Rate.parse(text) == rate
    assert Rate.parse(str(rate)) == rate


@pytest.mark.parametrize("text", ["10", "ten/min", "10/fortnight", "0/min", "-1/s", "10/0s"])
def test_a_rate_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="a rate is"):
        Rate.parse(text)
