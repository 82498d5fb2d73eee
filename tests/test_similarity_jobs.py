"""SL502's job separation (similarity/jobs.py), on invented tools: each signal that tells two
same-domain tools apart, and pairs that nothing separates."""

from __future__ import annotations

import pytest

from schemalint.similarity.compare import centre, column_sums, similar_pairs
from schemalint.similarity.jobs import job_factor, name_shape, singular


def _factor(a: str, b: str, text_a: str = "", text_b: str = "", params_a: str = "", params_b: str = "") -> str:
    separation = job_factor(
        a, text_a, frozenset(params_a.split()), frozenset(), b, text_b, frozenset(params_b.split()), frozenset()
    )
    return separation.reason


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        ("hex_encode", "hex_decode", "opposite actions"),
        ("volume_up", "volume_down", "opposite actions"),
        ("slide_in_panel", "slide_out_panel", "opposite actions"),
        ("register_webhook", "deregister_webhook", "opposite actions"),
        ("list_team_projects", "list_project_teams", "inverse lookup"),
        ("archive_note", "archive_notes", "one against many"),
        ("get_invoice", "list_invoices", "one item against a list"),
        ("get_shipment", "search_shipments", "one item against a list"),
        ("get_inbound_transfer", "get_outbound_transfer", "opposite actions"),
        ("cancel_rental_booking", "cancel_hotel_booking", "different objects"),
        ("get_album", "get_album_tracks", "different objects"),
        ("create_folder", "create_label", "different objects"),
        ("api_get", "api_post", "different actions"),
        ("rename_album", "delete_album", "different actions"),
        ("duplicate_slide", "create_slide", "different actions"),
        ("fetch_payouts", "list_payouts", "one item against a list"),
        ("insert_one", "insert_many", "one against many"),
        ("add_a_member", "add_members", "one against many"),
        ("undo_change", "redo_change", "opposite actions"),
        ("manage_team_members", "manage_team", "different objects"),
        ("drop_index", "manage_index_settings", "different objects"),
        ("create_invoice_draft", "send_invoice", "a draft against the action itself"),
        ("draft_post", "publish_post", "a draft against the action itself"),
        ("preview_migration", "run_migration", "a draft against the action itself"),
        ("simulate_payment", "make_payment", "a draft against the action itself"),
        ("create_row", "create_sheet", "different objects"),  # a general noun is the object when alone
        ("add_item", "add_folder", "different objects"),
        ("list_subscriptions", "subscribe_to_channel", "reads what the other one's action makes"),
        ("get_reminders", "remind_user", "reads what the other one's action makes"),
        ("get_account_preferences", "list_invoices", "one item against a list"),  # one account's settings
        ("shop_getProducts", "shop_getProductById", "one against many"),
        ("crm_archiveDeal", "crm_archiveDealUpdate", "different objects"),  # the verb of a camelCase part
        ("post_comment", "put_comment", "different actions"),  # not synonyms: send against write
        ("wiki_get_page_info", "wiki_get_page_count", "different objects"),  # the verb after a prefix word
        ("members_get_current", "members_list", "one item against a list"),  # a plural prefix is a namespace
    ],
)
def test_each_signal_separates_jobs(a: str, b: str, reason: str) -> None:
    assert _factor(a, b) == reason
    assert _factor(b, a) == reason  # symmetric


def test_all_of_a_kind_in_the_text_is_many() -> None:
    text_one, text_all = "Mark a to-do item as done.", "Mark all pending to-do items as done."
    assert job_factor(
        "mark_todo_done", text_one, frozenset(), frozenset(), "mark_all_todos_done", text_all, frozenset(), frozenset()
    ).factor == pytest.approx(0.3)


def test_one_against_many_is_stronger_when_the_texts_say_so() -> None:
    quiet = job_factor("tag_photo", "", frozenset(), frozenset(), "tag_photos", "", frozenset(), frozenset())
    stated = job_factor(
        "tag_photo",
        "Tag one photo.",
        frozenset(),
        frozenset(),
        "tag_photos",
        "Tag several photos at once.",
        frozenset(),
        frozenset(),
    )
    assert stated.factor < quiet.factor < 1.0


@pytest.mark.parametrize(
    ("a", "required_a", "b", "required_b", "separated"),
    [
        ("write_post", "text", "boost", "post_id", True),
        ("share_photo", "image_url caption", "reshare", "photoId", True),
        ("compose_note", "body", "star", "note_id", True),
        ("get_user", "user_id", "fetch_member", "member_id", False),  # both by id
        ("post_message", "text channel", "send_chat", "content room", False),  # both take content
    ],
)
def test_an_id_only_tool_acts_on_what_exists(a: str, required_a: str, b: str, required_b: str, separated: bool) -> None:
    def reason(x: str, rx: str, y: str, ry: str) -> str:
        needs_x, needs_y = frozenset(rx.split()), frozenset(ry.split())
        return job_factor(x, "", needs_x, needs_x, y, "", needs_y, needs_y).reason

    found = {reason(a, required_a, b, required_b), reason(b, required_b, a, required_a)}
    assert (found == {"a new item against an existing one"}) is separated


def test_a_lone_verb_acts_on_what_its_text_names() -> None:
    """A lone verb whose text names what it acts on is apart from the same verb on another object;
    when its text claims that object too, it overlaps the scoped tool."""
    own_scope = "Check a deployment config file against the cluster's admission rules."
    assert _factor("verify", "verify_signature", own_scope) == "different objects"
    assert _factor("verify_signature", "verify", text_b=own_scope) == "different objects"
    claims_it = "Check anything before it ships: config files, signatures, licences."
    assert _factor("verify", "verify_signature", claims_it) == ""
    assert _factor("verify", "sign_payload", own_scope) != "different objects"  # another verb: not this signal


def test_a_name_without_a_verb_does_the_verb_its_text_opens_with() -> None:
    hours = "Get the number of hours in a work shift."
    assert _factor("hours_in_shift", "get_rota_week", hours) == "different objects"
    assert _factor("get_rota_week", "hours_in_shift", text_b=hours) == "different objects"
    # another opening verb, or no verb in either name: the objects may be two words for one thing
    assert _factor("parcel_whereabouts", "track_shipment", "Show where a parcel is now.") == ""
    assert _factor("hours_in_shift", "rota_week", hours, "Get the rota week of a date.") == ""


def test_a_list_without_a_query_is_apart_from_the_search() -> None:
    def factor(list_params: str) -> float:
        return job_factor(
            "list_recipes",
            "",
            frozenset(list_params.split()),
            frozenset(),
            "search_recipes",
            "",
            frozenset({"query", "page"}),
            frozenset({"query"}),
        ).factor

    assert factor("page cursor") < factor("page keyword") < 1.0  # a list filtered by words is a search too


def test_paging_parameters_separate_a_list_from_a_single_read() -> None:
    assert _factor("pipeline_runs", "pipeline_run_detail", params_a="cursor project", params_b="run_id") != ""


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("find_customer", "lookup_client"),  # synonyms: nothing in the names tells them apart
        ("get_current_weather", "fetch_local_conditions"),
        ("manage_calendar", "add_calendar_event"),  # an umbrella tool covers its parts
        ("get_my_open_tickets", "get_tickets"),  # qualifiers of time or ownership name no other object
        ("add_contact", "create_contact"),  # verbs that are synonyms
        ("fetch_forecast", "get_forecast"),
        ("get_my_orders", "search_orders"),  # a plural read filtered by qualifiers is a search too
        ("add_email_draft", "create_email_draft"),  # two drafts: the same job
        ("get_draft", "fetch_draft"),
        ("add_record", "insert_record"),  # a general noun on both sides is the same object
        ("patch_record", "put_record"),  # a partial and a full update
        ("replace_note", "update_note"),
        ("apply_manifest", "create_manifest"),
        ("list_folder", "list_folder_with_dates"),  # a variant that adds a detail to the same listing
        ("crm_getContactV1", "crm_fetchContactV2"),  # version tags name no object
    ],
)
def test_nothing_separates_truly_overlapping_tools(a: str, b: str) -> None:
    assert _factor(a, b) in ("", "one against many")


def test_a_verb_word_inside_a_name_is_a_noun() -> None:
    assert name_shape("delete_file").objects == ("file",)
    assert name_shape("branch_write").verbs == ("write",)
    assert name_shape("sub_task_write").verbs == ("write",)
    assert name_shape("acme_archiveProjectUpdate").verbs == ("archive",)
    assert name_shape("acme_archiveProjectUpdate").objects == ("acme", "project", "update")
    assert name_shape("get_release_by_tag").objects == ("release", "tag")
    assert name_shape("wiki_get_page_count").verbs == ("get",)
    assert name_shape("wiki_get_page_count").objects == ("wiki", "page", "count")
    assert name_shape("pull_request_note_write").verbs == ("write",)  # `request` can be a noun
    assert singular("entries") == "entry" and singular("addresses") == "address" and singular("status") == "status"


def _tool(name: str, description: str) -> tuple[str, str, dict]:
    return (name, description, {"type": "object", "properties": {"id": {"type": "string"}}})


#: invented servers in one vocabulary each, and the one pair of them that does the same job
SERVERS = {
    "music": (
        [
            _tool("create_playlist", "Create a new playlist in the user's music library."),
            _tool("delete_playlist", "Delete a playlist from the user's music library."),
            _tool("get_playlist", "Get one playlist of the user's music library by its id."),
            _tool("list_playlists", "List the playlists of the user's music library, page by page."),
            _tool("add_track_to_playlist", "Add a track to a playlist of the user's music library."),
            _tool("remove_track_from_playlist", "Remove a track from a playlist of the user's music library."),
            _tool("get_track", "Get one track of the user's music library by its id."),
            _tool("follow_artist", "Follow an artist from the user's music library."),
            _tool("unfollow_artist", "Unfollow an artist from the user's music library."),
            _tool("make_playlist", "Make a new playlist in the user's music library."),
        ],
        ("create_playlist", "make_playlist"),
    ),
    # a draft is not the sent reply, but two tools that send it are
    "mail": (
        [
            _tool("create_reply_draft", "Write a reply to a message and keep it as a draft in the mailbox."),
            _tool("reply_to_message", "Write a reply to a message and send it from the mailbox."),
            _tool("answer_message", "Write a reply to a message and send it from the mailbox right away."),
            _tool("create_folder", "Create a mail folder in the mailbox."),
            _tool("delete_message", "Delete a message from the mailbox."),
        ],
        ("reply_to_message", "answer_message"),
    ),
    # a settings read is not a listing, a subscription list is not the subscribing, but replacing a
    # record and updating it are one job
    "records": (
        [
            _tool("update_record", "Update the fields of an existing record in the store."),
            _tool("replace_record", "Replace an existing record in the store with new field values."),
            _tool("get_store_settings", "Get the settings of the record store: retention, region and quotas."),
            _tool("list_record_types", "List the record types defined in the record store."),
            _tool("list_subscriptions", "List the change feeds of the record store the caller is subscribed to."),
            _tool("subscribe_to_changes", "Subscribe the caller to the change feed of the record store."),
            _tool("delete_record", "Delete a record from the store."),
        ],
        ("update_record", "replace_record"),
    ),
    # reviewing a query is not running it; a partial and a full update of a dashboard are one job
    "warehouse": (
        [
            _tool("review_query", "Review a SQL query for the warehouse and suggest faster ways to write it."),
            _tool("run_query", "Run a SQL query on the warehouse and return the rows."),
            _tool("patch_dashboard", "Change some fields of a warehouse dashboard, leaving the others as they are."),
            _tool("put_dashboard", "Write a warehouse dashboard, replacing all of its fields."),
            _tool("list_tables", "List the tables of the warehouse."),
        ],
        ("patch_dashboard", "put_dashboard"),
    ),
    # a geocoder is not the map it feeds; a listing with one more detail is still the listing
    "maps": (
        [
            _tool("geocode", "Find the coordinates and bounding box of a place name."),
            _tool("show_map", "Display an interactive map of a bounding box; use the GeoCode tool to find one."),
            _tool("list_saved_places", "List the places the user saved on the map."),
            _tool("list_saved_places_with_notes", "List the places the user saved on the map, with the note on each."),
            _tool("get_directions", "Get driving directions between two places on the map."),
        ],
        ("list_saved_places", "list_saved_places_with_notes"),
    ),
    "cluster": (
        [
            _tool("apply_manifest", "Apply a YAML manifest to the cluster, creating or updating what it describes."),
            _tool("create_resource", "Create a resource in the cluster from a YAML manifest."),
            _tool("get_pod_logs", "Get the logs of a pod in the cluster."),
            _tool("scale_deployment", "Scale a deployment of the cluster to a number of replicas."),
            _tool("delete_resource", "Delete a resource from the cluster."),
        ],
        ("apply_manifest", "create_resource"),
    ),
}


@pytest.mark.parametrize("server", SERVERS)
def test_same_server_siblings_are_not_reported_but_a_real_duplicate_is(server: str, tmp_path) -> None:
    tools, duplicate = SERVERS[server]
    settings = {"embedding-backend": "static", "cache-dir": str(tmp_path)}
    result = similar_pairs(tools, settings, threshold=0.5, top_k=5)
    assert [(tools[a][0], tools[b][0]) for a, b, _ in result.pairs] == [duplicate]


def test_centring_gives_the_same_bits_for_rows_and_matrices() -> None:
    import numpy as np

    rows = [[0.6, 0.8, 0.0], [0.0, 0.6, 0.8], [0.8, 0.0, 0.6], [0.0, 0.0, 0.0]]
    matrix = np.array(rows, dtype=np.float32)
    as_float32 = matrix.tolist()
    assert centre(as_float32, column_sums(as_float32)) == centre(matrix, column_sums(matrix)).tolist()


def test_a_pair_is_centred_on_the_other_tools_only() -> None:
    """`cosines_apart` is the cosine of the two vectors less the mean of the others (weighed against
    one tool's worth of zeros), the same bits for rows and matrices, and the raw cosine for two tools."""
    import numpy as np

    from schemalint.similarity.compare import CENTRING_PRIOR, column_sums, cosines_apart

    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(6, 16)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    pairs = [(0, 1), (2, 5), (3, 4)]
    found = cosines_apart(matrix, column_sums(matrix), pairs)
    assert found == cosines_apart(matrix.tolist(), column_sums(matrix.tolist()), pairs)
    wide = matrix.astype(np.float64)
    for (left, right), cosine in zip(pairs, found, strict=True):
        others = np.delete(wide, [left, right], axis=0)
        mean = others.sum(axis=0) / (len(others) + CENTRING_PRIOR)
        a, b = wide[left] - mean, wide[right] - mean
        assert cosine == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b), abs=1e-6)
