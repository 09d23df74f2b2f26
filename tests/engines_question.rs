//! A question added to the engines from outside the crate: this file
//! (its question, its answer, its `impl Question`) and one line of a
//! table (`Entry::of::<Owners>()`). The worker serves it beside the
//! playground's own, through the same wire, with the same revisions.

use patchlab::engines::wire::{self, Asking, Header};
use patchlab::engines::worker::Worker;
use patchlab::engines::{Caches, Entry, Question, TABLE};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// "Owners of this object": the field managers its `managedFields` name,
/// in order.
#[derive(Serialize, Deserialize)]
struct Owners {
    object: String,
}

impl Question for Owners {
    const NAME: &'static str = "owners";
    type Rev = u64;
    type Answer = Vec<String>;
    type Refusal = String;

    fn bytes(&self) -> usize {
        self.object.len()
    }

    fn answer(self, _: &mut Caches) -> Result<Vec<String>, String> {
        let object: Value = serde_json::from_str(&self.object).map_err(|e| e.to_string())?;
        let entries = object["metadata"]["managedFields"].as_array().cloned();
        Ok(entries
            .unwrap_or_default()
            .iter()
            .filter_map(|e| e["manager"].as_str().map(str::to_owned))
            .collect())
    }
}

fn ask<Q: Question>(worker: &mut Worker, rev: Q::Rev, question: &Q) -> String {
    assert_eq!(
        worker.take(&Asking::new(&rev, question, Some(1)).text()),
        None
    );
    worker.work(&|| 0.0).expect("a reply")
}

#[test]
fn a_question_added_by_one_file_and_one_table_line_is_served_beside_the_others() {
    let table = [TABLE, &[Entry::of::<Owners>()]].concat();
    let mut worker = Worker::new(&table);
    let object = r#"{"metadata":{"managedFields":[{"manager":"helm"},{"manager":"kubectl"}]}}"#;
    let reply = ask(
        &mut worker,
        7,
        &Owners {
            object: object.into(),
        },
    );
    assert_eq!(
        Header::read(&reply).unwrap().answered.as_deref(),
        Some("owners")
    );
    let (rev, owners) = wire::read::<Owners>(&reply).unwrap();
    assert_eq!(
        (rev, owners),
        (7, Ok(vec!["helm".to_owned(), "kubectl".to_owned()]))
    );
    // Its refusal, typed, through the same wire.
    let reply = ask(&mut worker, 8, &Owners { object: "{".into() });
    let (_, refused) = wire::read::<Owners>(&reply).unwrap();
    assert!(refused.unwrap_err().contains("EOF"));
    // The playground's questions are served as before.
    let yaml = patchlab::engines::read_yaml::ReadYaml {
        texts: vec!["a: 1".into()],
    };
    let reply = ask(&mut worker, 1, &yaml);
    assert!(wire::read::<patchlab::engines::read_yaml::ReadYaml>(&reply).is_ok());
    // A worker without the line does not know it, and says so.
    let mut without = Worker::new(TABLE);
    let text = Asking::new(
        &9,
        &Owners {
            object: "{}".into(),
        },
        Some(2),
    )
    .text();
    let misread = without.take(&text).expect("refused at once");
    assert!(Header::read(&misread)
        .unwrap()
        .misread
        .unwrap()
        .contains("owners"));
}
