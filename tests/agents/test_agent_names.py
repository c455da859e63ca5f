"""Agent lists keep a search budget's commas with it (issue 39, item 7)."""

from wasteland.agents.names import split_agents


def test_budget_commas_stay_with_the_search_agent() -> None:
    assert split_agents("search:rollouts=8,candidates=3,packet") == [
        "search:rollouts=8,candidates=3", "packet"]
    assert split_agents("packet,search:rollouts=8,candidates=3") == [
        "packet", "search:rollouts=8,candidates=3"]


def test_plain_lists_split_at_every_comma() -> None:
    assert split_agents("packet,random, scripted") == ["packet", "random", "scripted"]
    assert split_agents("packet,,random,") == ["packet", "random"]
    assert split_agents("") == []


def test_a_key_after_another_agent_is_its_own_piece() -> None:
    # only a search budget takes keys; anything else reaches make_agent and is refused there
    assert split_agents("packet,rollouts=8") == ["packet", "rollouts=8"]
    assert split_agents("search@0.5,rollouts=8") == ["search@0.5", "rollouts=8"]
    assert split_agents("search:rollouts=8,policy:my/x.npz") == [
        "search:rollouts=8", "policy:my/x.npz"]
